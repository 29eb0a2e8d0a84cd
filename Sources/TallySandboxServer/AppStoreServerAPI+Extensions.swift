import Foundation
import TallyCore
import TallyCrypto
import TallyHTTP
import TallySandbox

extension AppStoreServerAPI {
    /// `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}` with an `ExtendRenewalDateRequest`
    /// (`extendByDays` 1–90, `extendReasonCode` 0–3, `requestIdentifier` ≤ 128 characters; 4000009, 4000010,
    /// 4000011): 200 `{originalTransactionId, webOrderLineItemId, success, effectiveDate}`; 403 `4030004` for a
    /// subscription not in a paid period, `4030005` after two extensions within 365 days, `4030007` for a
    /// family-shared one; 404 `4040005` for an unknown original transaction (§4.9).
    func extendRenewalDate(_ id: String, request: HTTPRequest, token: ServerAPIToken) throws -> HTTPResponse {
        let (days, reason, identifier) = try Self.extensionFields(try APIRequestBody(request), uuid: false)
        let (sandbox, account, transaction) = try original(id, token: token, invalid: .invalidOriginalTransactionId)
        guard transaction.type == .autoRenewable, transaction.originalTransactionId == id,
              sandbox.renewalInfos(account: account).contains(where: { $0.originalTransactionId == id }) else {
            throw AppStoreAPIError.originalTransactionIdNotFound
        }
        guard transaction.inAppOwnershipType != .familyShared else {
            throw AppStoreAPIError.familySharedSubscriptionExtensionIneligible
        }
        let done = try change(account: account) { sandbox in
            try sandbox.extendRenewalDate(originalTransactionId: id, days: days, reasonCode: reason,
                                          requestIdentifier: identifier)
        }
        var object: [String: Any] = ["originalTransactionId": id, "success": true,
                                     "effectiveDate": done.effectiveDate.millisecondsSince1970]
        if let line = done.webOrderLineItemId { object["webOrderLineItemId"] = line }
        return try Self.json(object)
    }

    /// `POST /inApps/v1/subscriptions/extend/mass` with a `MassExtendRenewalDateRequest`: checked (a UUID
    /// `requestIdentifier`, 4000011; `productId` an auto-renewable of the catalog, 4000023; a non-empty list of
    /// alpha-3 `storefrontCountryCodes` when given, 4000027/4000028), run at once over every active subscriber
    /// of the product, `{"requestIdentifier": …}`. A `requestIdentifier` already used answers 200 again.
    func massExtendRenewalDate(_ request: HTTPRequest, token: ServerAPIToken) throws -> HTTPResponse {
        let body = try APIRequestBody(request)
        let (days, reason, identifier) = try Self.extensionFields(body, uuid: true)
        let productId = try body.string("productId", or: .invalidProductId)
        var storefronts: [String]?
        if body.has("storefrontCountryCodes") {
            guard case .array(let items)? = body.fields["storefrontCountryCodes"] else {
                throw AppStoreAPIError.invalidStorefrontCountryCode
            }
            guard !items.isEmpty else { throw AppStoreAPIError.invalidEmptyStorefrontCountryCodeList }
            storefronts = try items.map { item throws(AppStoreAPIError) -> String in
                guard case .string(let code) = item, code.utf8.count == 3,
                      code.utf8.allSatisfy({ (65...90).contains($0) }) else { throw .invalidStorefrontCountryCode }
                return code
            }
        }
        let sandbox = try sandboxDirectory.load(account: "", events: false)  // the store-wide state only
        guard token.bundleId == sandbox.bundleId else { throw AppStoreAPIError.invalidAppIdentifier }
        guard sandbox.catalog.products.contains(where: { $0.id == productId && $0.kind == .autoRenewable }) else {
            throw AppStoreAPIError.invalidProductId
        }
        let done = try change(account: nil) { sandbox in
            sandbox.massExtendRenewalDate(productId: productId, days: days, reasonCode: reason,
                                          requestIdentifier: identifier, storefrontCountryCodes: storefronts)
        }
        return try Self.json(["requestIdentifier": done.requestIdentifier])
    }

    /// `GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`: `{requestIdentifier,
    /// complete}` and, complete, `completeDate`, `succeededCount`, `failedCount`; 404 `4040009` for a request
    /// never made for that product.
    func massExtensionStatus(productId: String, requestIdentifier: String, token: ServerAPIToken) throws -> HTTPResponse {
        guard !productId.isEmpty else { throw AppStoreAPIError.invalidProductId }
        guard UUID(uuidString: requestIdentifier) != nil else { throw AppStoreAPIError.invalidRequestIdentifier }
        let sandbox = try sandboxDirectory.load(account: "", events: false)  // the store-wide state only
        guard token.bundleId == sandbox.bundleId,
              let request = sandbox.massExtension(productId: productId, requestIdentifier: requestIdentifier) else {
            throw AppStoreAPIError.statusRequestNotFound
        }
        var object: [String: Any] = ["requestIdentifier": request.requestIdentifier, "complete": request.completeDate != nil]
        if let date = request.completeDate {
            object["completeDate"] = date.millisecondsSince1970
            object["succeededCount"] = request.succeededCount
            object["failedCount"] = request.failedCount
        }
        return try Self.json(object)
    }

    /// `extendByDays`, `extendReasonCode` and `requestIdentifier` of either request, checked in that order.
    private static func extensionFields(_ body: APIRequestBody, uuid: Bool) throws(AppStoreAPIError) -> (Int, Int, String) {
        let days = try body.integer("extendByDays", in: 1...90, or: .invalidExtendByDays)
        let reason = try body.integer("extendReasonCode", in: 0...3, or: .invalidExtendReasonCode)
        let identifier = try body.string("requestIdentifier", or: .invalidRequestIdentifier)
        guard !identifier.isEmpty, identifier.count <= 128, !uuid || UUID(uuidString: identifier) != nil else {
            throw .invalidRequestIdentifier
        }
        return (days, reason, identifier)
    }
}
