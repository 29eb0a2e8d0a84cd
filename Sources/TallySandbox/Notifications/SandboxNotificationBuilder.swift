import Foundation
import TallyCore

/// Builds the App Store Server Notification V2 the App Store sends for a sandbox event, signed by the
/// sandbox's CA like its transactions: `notificationType`/`subtype`, `notificationUUID`, `signedDate` (the
/// event's sandbox time), `version` "2.0", and `data` with the app, the environment, the `status` and the
/// nested `signedTransactionInfo` and `signedRenewalInfo` (../shared/docs/server-notifications-v2.md §2, §3.1).
public struct SandboxNotificationBuilder: Sendable {
    /// Signs the nested payloads and the notification.
    public let signer: SandboxSigner
    /// The app's bundle id.
    public let bundleId: String
    /// The app's Apple id (`appAppleId`); nil in the sandbox environment, where Apple's payloads may omit it.
    public let appAppleId: Int64?
    /// The app's build version (`bundleVersion`).
    public let bundleVersion: String
    /// `Sandbox` or `Production` (the sandbox's own environment setting).
    public let environment: StoreEnvironment

    /// Creates a builder.
    public init(signer: SandboxSigner, bundleId: String, appAppleId: Int64?, bundleVersion: String = "1",
                environment: StoreEnvironment) {
        self.signer = signer
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.bundleVersion = bundleVersion
        self.environment = environment
    }

    /// One notification ready to send: its decoded form and its `signedPayload`.
    public struct Built: Sendable {
        /// The payload as sent.
        public var notification: ServerNotification
        /// The JWS to post as `{"signedPayload": …}`.
        public var signedPayload: String
    }

    /// The notification for `event` about `transaction` (the event's transaction, or for a failed renewal
    /// or an expiry the latest successful one) and the chain's `renewalInfo` as of the event; nil when Apple
    /// sends none for the event. `uuid` is the notification's id, kept across retries. A RENEWAL_EXTENSION /
    /// SUMMARY carries `summary` (``Sandbox/notificationSummary(for:)``) instead of `data`; a
    /// CONSUMPTION_REQUEST carries the event's reason as `data.consumptionRequestReason`.
    public func notification(for event: SandboxEvent, transaction: StoreTransaction?, renewalInfo: RenewalInfo?,
                             summary: NotificationSummary? = nil, uuid: UUID = UUID()) throws(SigningError) -> Built? {
        guard let (type, subtype) = event.notificationKind else { return nil }
        if event.kind == .renewalExtensionSummary {
            var summary = summary ?? NotificationSummary(productId: event.productId, requestIdentifier: event.detail)
            summary.environment = environment
            summary.appAppleId = appAppleId
            summary.bundleId = bundleId
            let notification = ServerNotification(
                notificationType: type, subtype: subtype, notificationUUID: uuid.uuidString.lowercased(),
                version: "2.0", signedDate: event.date, summary: summary)
            return Built(notification: notification, signedPayload: try signer.sign(notification))
        }
        let isSubscription = transaction?.type == .autoRenewable
        let data = NotificationData(
            appAppleId: appAppleId, bundleId: bundleId, bundleVersion: bundleVersion, environment: environment,
            signedTransactionInfo: try transaction.map { (value) throws(SigningError) in try signer.signTransaction(value) },
            signedRenewalInfo: isSubscription
                ? try renewalInfo.map { (value) throws(SigningError) in try signer.signRenewalInfo(value) } : nil,
            status: event.subscriptionStatus(isSubscription: isSubscription),
            consumptionRequestReason: event.kind == .refundRequested ? event.detail : nil)
        let notification = ServerNotification(
            notificationType: type, subtype: subtype, notificationUUID: uuid.uuidString.lowercased(), version: "2.0",
            signedDate: event.date, data: data)
        return Built(notification: notification, signedPayload: try signer.sign(notification))
    }

    /// A `TEST` notification (Request a Test Notification): `data` holds only the app and the environment.
    public func testNotification(at date: Date, uuid: UUID = UUID()) throws(SigningError) -> Built {
        let data = NotificationData(appAppleId: appAppleId, bundleId: bundleId, environment: environment)
        let notification = ServerNotification(notificationType: .test, notificationUUID: uuid.uuidString.lowercased(),
                                              version: "2.0", signedDate: date, data: data)
        return Built(notification: notification, signedPayload: try signer.sign(notification))
    }
}
