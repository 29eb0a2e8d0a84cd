import Foundation
import TallyAppStoreAPI
import TallyCore
import TallyStorage

/// What one round of ``EntitlementAPI/answerConsumptionRequests()`` did.
public struct ConsumptionRound: Sendable, Hashable {
    /// Requests answered with Send Consumption Information (202).
    public var sent = 0
    /// Requests Apple refused (a 4xx); recorded, not sent again.
    public var refused = 0
    /// Requests about a transaction already refunded; recorded, nothing sent.
    public var skipped = 0
    /// Requests whose 12-hour window ended unanswered; recorded.
    public var expired = 0
    /// Requests left for a later round: no customer holds the transaction yet, or the API did not answer.
    public var waiting = 0
}

extension EntitlementAPI {
    /// Apple's window for answering a `CONSUMPTION_REQUEST`: 12 hours from the notification.
    public static let consumptionWindow: TimeInterval = 12 * 3_600

    /// Answers every open `CONSUMPTION_REQUEST` with Send Consumption Information when
    /// `appStoreServerAPI.consumptionInformation` is configured (``ConsumptionInformation`` says what is sent),
    /// recording each answer durably so it is sent once; one whose transaction no customer holds yet waits
    /// (a post of it may come) until the window ends. Nothing happens when it is not configured.
    public func answerConsumptionRequests() throws(CustomerStoreError) -> ConsumptionRound {
        var round = ConsumptionRound()
        guard let api = configuration.appStoreServerAPI, let settings = api.consumption else { return round }
        let client = api.client(bundleId: configuration.verification.bundleId)
        let credits = configuration.credits
        for request in try store.openConsumptionRequests(receivedSince: .distantPast) {
            let now = clock.now()
            let late = now.timeIntervalSince(request.receivedDate) > Self.consumptionWindow
            func finish(_ status: ConsumptionAnswer.Status, body: [UInt8]? = nil, _ detail: String?) throws(CustomerStoreError) {
                let answer = ConsumptionAnswer(notificationUUID: request.notificationUUID, transactionId: request.transactionId,
                                               status: status, body: body.map { String(decoding: $0, as: UTF8.self) },
                                               detail: detail, date: now)
                guard try store.recordConsumptionAnswer(answer) else { return }
                metrics.recordConsumptionAnswer(status: status.rawValue)
                switch status {
                case .sent: round.sent += 1
                case .refused: round.refused += 1
                case .skipped: round.skipped += 1
                case .expired: round.expired += 1
                }
            }
            let record = try request.appUserId.map { (owner) throws(CustomerStoreError) in try store.customer(owner) }
            guard let record, let stored = record.transactions.first(where: {
                $0.transaction.transactionId.hasSameBytes(as: request.transactionId)
            }) else {
                if late { try finish(.expired, "no customer posted the transaction within Apple's 12-hour window") } else { round.waiting += 1 }
                continue
            }
            guard let information = ConsumptionInformation(transaction: stored.transaction, record: record,
                                                           credits: credits, settings: settings, at: now)
            else {
                try finish(.skipped, "the transaction is already refunded")
                continue
            }
            if settings.version == 1, !information.isV1Kind {
                try finish(.skipped, "Send Consumption Information V1 covers consumables and auto-renewable subscriptions only")
                continue
            }
            if late {
                try finish(.expired, "Apple's 12-hour window ended before the App Store Server API answered")
                continue
            }
            let body = settings.version == 1 ? information.jsonV1 : information.json
            let failure: AppStoreAPIClientError?
            do throws(AppStoreAPIClientError) {
                if settings.version == 1 {
                    try client.sendConsumptionInformationV1(request.transactionId, body: Data(body))
                } else {
                    try client.sendConsumptionInformation(request.transactionId, body: Data(body))
                }
                failure = nil
            } catch {
                failure = error
            }
            guard let failure else {
                try finish(.sent, body: body, nil)
                log("consumption information sent for transaction \(request.transactionId): \(String(decoding: body, as: UTF8.self))")
                continue
            }
            if failure.reason == .apiError, let status = failure.status, (400...499).contains(status) {
                try finish(.refused, body: body, failure.description)
                log("consumption information for transaction \(request.transactionId) refused: \(failure)")
            } else {
                round.waiting += 1
                log("consumption information for transaction \(request.transactionId) not sent yet (will try again): \(failure)")
            }
        }
        return round
    }
}
