import Foundation
import TallyCore
import TallyCrypto
import TallyHTTP
import TallySandbox

extension AppStoreServerAPI {
    /// v2 `deliveryStatus` values.
    static let deliveryStatuses: Set<String> = [
        "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER",
    ]
    /// v1 `deliveryStatus` numbers in v2's names (4, an in-game currency change, has no v2 name).
    static let deliveryStatusesV1 = [
        "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE",
        "UNDELIVERED_IN_GAME_CURRENCY_CHANGE", "UNDELIVERED_OTHER",
    ]

    /// `PUT /inApps/v2/transactions/consumption/{transactionId}` with a `ConsumptionRequest`: checked as Apple
    /// checks it (§4.8), kept with the transaction, 202. `customerConsented` must be true (4000035);
    /// `deliveryStatus` one of Apple's five (4000036); `sampleContentProvided` a boolean (4000041);
    /// `refundPreference` DECLINE, GRANT_FULL or GRANT_PRORATED (4000044); `consumptionPercentage` never for an
    /// auto-renewable (4000209), else 0–100000, 0 unless DELIVERED, and strictly between 0 and 100000 with
    /// GRANT_PRORATED — those three codes are unconfirmed, so they answer 400 `4000000`.
    func sendConsumption(_ id: String, request: HTTPRequest, token: ServerAPIToken) throws -> HTTPResponse {
        let (_, account, transaction) = try consumptionSubject(id, token: token)
        let body = try APIRequestBody(request)
        guard try body.bool("customerConsented", or: .invalidCustomerConsented) else { throw AppStoreAPIError.invalidCustomerConsented }
        let delivery = try body.string("deliveryStatus", or: .invalidConsumptionField(4_000_036, "delivery status"))
        guard Self.deliveryStatuses.contains(delivery) else { throw AppStoreAPIError.invalidConsumptionField(4_000_036, "delivery status") }
        _ = try body.bool("sampleContentProvided", or: .invalidConsumptionField(4_000_041, "sample content provided"))
        var preference: String?
        if body.has("refundPreference") {
            let value = try body.string("refundPreference", or: .invalidRefundPreference)
            guard ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"].contains(value) else { throw AppStoreAPIError.invalidRefundPreference }
            preference = value
        }
        var percentage: Int?
        if body.has("consumptionPercentage") {
            guard transaction.type != .autoRenewable else { throw AppStoreAPIError.consumptionPercentageAutoRenewable }
            let value = try body.integer("consumptionPercentage", in: 0...100_000, or: .generalBadRequest)
            guard delivery == "DELIVERED" || value == 0 else { throw AppStoreAPIError.generalBadRequest }
            guard preference != "GRANT_PRORATED" || (1...99_999).contains(value) else { throw AppStoreAPIError.generalBadRequest }
            percentage = value
        }
        try record(transactionId: id, account: account) { now in
            SandboxConsumptionInfo(version: 2, receivedDate: now, deliveryStatus: delivery,
                                   consumptionPercentage: percentage, refundPreference: preference, body: body.text)
        }
        return Self.empty(202)
    }

    /// `PUT /inApps/v1/transactions/consumption/{transactionId}` with a `ConsumptionRequestV1`: every field
    /// required but `refundPreference`, each checked with its own code (4000032–4000042, 4000044); for a
    /// consumable or an auto-renewable only (4000047); kept and 202.
    func sendConsumptionV1(_ id: String, request: HTTPRequest, token: ServerAPIToken) throws -> HTTPResponse {
        let (_, account, transaction) = try consumptionSubject(id, token: token)
        guard transaction.type == .consumable || transaction.type == .autoRenewable else {
            throw AppStoreAPIError.transactionTypeNotSupported
        }
        let body = try APIRequestBody(request)
        func field(_ name: String, _ range: ClosedRange<Int64>, _ code: Int, _ words: String) throws(AppStoreAPIError) -> Int {
            try body.integer(name, in: range, or: .invalidConsumptionField(code, words))
        }
        guard try body.bool("customerConsented", or: .invalidCustomerConsented) else { throw AppStoreAPIError.invalidCustomerConsented }
        let consumption = try field("consumptionStatus", 0...3, 4_000_034, "consumption status")
        _ = try field("platform", 0...2, 4_000_039, "platform")
        _ = try body.bool("sampleContentProvided", or: .invalidConsumptionField(4_000_041, "sample content provided"))
        let delivery = try field("deliveryStatus", 0...5, 4_000_036, "delivery status")
        let token = try body.string("appAccountToken", or: .invalidAppAccountToken)
        guard token.isEmpty || UUID(uuidString: token) != nil else { throw AppStoreAPIError.invalidAppAccountToken }
        _ = try field("accountTenure", 0...7, 4_000_032, "account tenure")
        _ = try field("playTime", 0...7, 4_000_040, "play time")
        _ = try field("lifetimeDollarsPurchased", 0...7, 4_000_037, "lifetime dollars purchased")
        _ = try field("lifetimeDollarsRefunded", 0...7, 4_000_038, "lifetime dollars refunded")
        _ = try field("userStatus", 0...4, 4_000_042, "user status")
        var preference: String?
        if body.has("refundPreference") {
            switch try body.integer("refundPreference", in: 0...3, or: .invalidRefundPreference) {
            case 1: preference = "GRANT_FULL"
            case 2: preference = "DECLINE"
            default: preference = nil
            }
        }
        try record(transactionId: id, account: account) { now in
            SandboxConsumptionInfo(version: 1, receivedDate: now, deliveryStatus: Self.deliveryStatusesV1[delivery],
                                   consumptionStatus: consumption, refundPreference: preference, body: body.text)
        }
        return Self.empty(202)
    }

    /// The transaction of a Send Consumption Information call: 400 `4000006` / 404 `4040010` as for any
    /// transaction id, 400 `4000185` for a family-shared one.
    private func consumptionSubject(_ id: String, token: ServerAPIToken) throws -> (Sandbox, String, StoreTransaction) {
        let (sandbox, account) = try customer(of: id, token: token)
        guard let transaction = sandbox.transactions(account: account).first(where: { $0.transactionId.hasSameBytes(as: id) }) else {
            throw AppStoreAPIError.transactionIdNotFound
        }
        guard transaction.inAppOwnershipType != .familyShared else { throw AppStoreAPIError.familyTransactionNotSupported }
        return (sandbox, account, transaction)
    }

    /// Keeps the information `info` builds from the sandbox's time (its received date).
    private func record(transactionId: String, account: String,
                        _ info: (Date) -> SandboxConsumptionInfo) throws {
        try change(account: account) { sandbox in
            try sandbox.recordConsumption(transactionId: transactionId, info(sandbox.now))
        }
    }
}
