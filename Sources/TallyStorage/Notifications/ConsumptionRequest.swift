import Foundation

/// A `CONSUMPTION_REQUEST` notification the server holds that has no ``ConsumptionAnswer`` yet: Apple asks
/// how much of `transactionId` the customer consumed before it decides their refund request.
public struct ConsumptionRequest: Sendable, Hashable {
    /// The notification's `notificationUUID`.
    public var notificationUUID: String
    /// The transaction the customer asked a refund for.
    public var transactionId: String
    /// The customer that transaction is stored for now; nil while no customer posted it.
    public var appUserId: String?
    /// When the server received the notification (Apple's 12-hour window starts then).
    public var receivedDate: Date

    /// Creates a request.
    public init(notificationUUID: String, transactionId: String, appUserId: String?, receivedDate: Date) {
        self.notificationUUID = notificationUUID
        self.transactionId = transactionId
        self.appUserId = appUserId
        self.receivedDate = receivedDate
    }
}
