import Foundation

/// A notification applied to a customer, as their history shows it.
public struct NotificationEntry: Sendable, Hashable {
    /// `notificationUUID`.
    public var notificationUUID: String
    /// `notificationType`.
    public var notificationType: String
    /// `subtype`, when present.
    public var subtype: String?
    /// When the App Store signed it.
    public var signedDate: Date
    /// The chain it is about, when it names one.
    public var originalTransactionId: String?
    /// What became of it.
    public var result: NotificationResult

    /// Creates an entry.
    public init(notificationUUID: String, notificationType: String, subtype: String? = nil, signedDate: Date,
                originalTransactionId: String? = nil, result: NotificationResult) {
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.subtype = subtype
        self.signedDate = signedDate
        self.originalTransactionId = originalTransactionId
        self.result = result
    }
}
