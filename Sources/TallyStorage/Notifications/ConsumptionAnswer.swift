import Foundation

/// What the server did about one ``ConsumptionRequest``, kept so it is done once.
public struct ConsumptionAnswer: Sendable, Hashable {
    /// How the request ended.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Send Consumption Information was answered 202: Apple has the information in ``ConsumptionAnswer/body``.
        case sent
        /// Apple refused the information (a 4xx other than a rate limit); ``ConsumptionAnswer/detail`` says why.
        case refused
        /// Nothing was sent because the transaction is already refunded.
        case skipped
        /// Apple's 12-hour window ended before the server could answer (no customer held the transaction,
        /// or the API stayed unreachable).
        case expired
    }

    /// The request's `notificationUUID`.
    public var notificationUUID: String
    /// The transaction it was about.
    public var transactionId: String
    /// How it ended.
    public var status: Status
    /// The `ConsumptionRequest` JSON sent, for ``Status/sent`` and ``Status/refused``.
    public var body: String?
    /// Why, for anything but ``Status/sent``.
    public var detail: String?
    /// When it ended.
    public var date: Date

    /// Creates an answer.
    public init(notificationUUID: String, transactionId: String, status: Status, body: String? = nil,
                detail: String? = nil, date: Date) {
        self.notificationUUID = notificationUUID
        self.transactionId = transactionId
        self.status = status
        self.body = body
        self.detail = detail
        self.date = date
    }
}
