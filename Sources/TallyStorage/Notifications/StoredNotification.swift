import Foundation
import TallyCore

/// A verified App Store Server Notification as the server keeps it: the raw `signedPayload`, what history
/// and metrics show (type, subtype, date), and the facts it carries (its verified transaction and renewal
/// info, each with its JWS), which the store applies through the same rules as posted transactions.
public struct StoredNotification: Sendable, Hashable {
    /// `notificationUUID`: the key a retry is recognised by.
    public var notificationUUID: String
    /// `notificationType`, as Apple wrote it (unknown values kept).
    public var notificationType: String
    /// `subtype`, when present.
    public var subtype: String?
    /// When the App Store signed the notification.
    public var signedDate: Date
    /// The outer JWS as received.
    public var signedPayload: String
    /// The verified `data.signedTransactionInfo`, with its JWS as `signedTransaction`; nil for none or for a
    /// notification whose facts are not applied (``appliesFacts``).
    public var transaction: StoredTransaction?
    /// The verified `data.signedRenewalInfo`; nil for none.
    public var renewalInfo: RenewalInfo?
    /// `data.signedRenewalInfo` as received.
    public var signedRenewalInfo: String?
    /// Whether the store applies ``transaction`` and ``renewalInfo`` (see `NotificationEffect`); when false
    /// the notification is only recorded.
    public var appliesFacts: Bool

    /// Creates a stored notification.
    public init(notificationUUID: String, notificationType: String, subtype: String? = nil, signedDate: Date,
                signedPayload: String, transaction: StoredTransaction? = nil, renewalInfo: RenewalInfo? = nil,
                signedRenewalInfo: String? = nil, appliesFacts: Bool) {
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.subtype = subtype
        self.signedDate = signedDate
        self.signedPayload = signedPayload
        self.transaction = transaction
        self.renewalInfo = renewalInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.appliesFacts = appliesFacts
    }

    /// The subscription chain the notification is about: its transaction's, else its renewal info's.
    public var originalTransactionId: String? {
        transaction?.transaction.originalTransactionId ?? renewalInfo?.originalTransactionId
    }

    /// The `appAccountToken` it carries: its transaction's, else its renewal info's.
    public var appAccountToken: String? {
        transaction?.transaction.appAccountToken ?? renewalInfo?.appAccountToken
    }
}
