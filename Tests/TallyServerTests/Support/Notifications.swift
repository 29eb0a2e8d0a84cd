import Foundation
import TallyCore
import TallySandbox
@testable import TallyServer

/// Sandbox-signed App Store Server Notifications for the fixture's app, posted to the notification route.
extension ServerFixture {
    static let day: TimeInterval = 86_400

    /// Signs a notification of `type` whose `data` carries `transaction` and `renewal` (each signed too)
    /// and posts it without a key, as Apple does.
    @discardableResult
    func notify(_ type: NotificationType, _ subtype: NotificationSubtype? = nil, uuid: String = UUID().uuidString,
                signed: Date, transaction: StoreTransaction? = nil, renewal: RenewalInfo? = nil, status: Int? = nil,
                signer: SandboxSigner? = nil, bundleId: String = "com.example.market",
                path: String = NotificationSettings.defaultPath) throws -> Reply {
        let jws = try signedNotification(type, subtype, uuid: uuid, signed: signed, transaction: transaction,
                                         renewal: renewal, status: status, signer: signer, bundleId: bundleId)
        return postNotification(jws, path: path)
    }

    /// The `signedPayload` of such a notification.
    func signedNotification(_ type: NotificationType, _ subtype: NotificationSubtype? = nil,
                            uuid: String = UUID().uuidString, signed: Date, transaction: StoreTransaction? = nil,
                            renewal: RenewalInfo? = nil, status: Int? = nil, signer: SandboxSigner? = nil,
                            bundleId: String = "com.example.market") throws -> String {
        let signer = signer ?? self.signer
        let data = NotificationData(
            appAppleId: 1_234_567_890, bundleId: bundleId, bundleVersion: "1", environment: .sandbox,
            signedTransactionInfo: try transaction.map { try signer.signTransaction($0) },
            signedRenewalInfo: try renewal.map { try signer.signRenewalInfo($0) }, status: status)
        return try signer.sign(ServerNotification(
            notificationType: type, subtype: subtype, notificationUUID: uuid, signedDate: signed, data: data))
    }

    /// Posts `{"signedPayload": jws}` to the notification route.
    func postNotification(_ jws: String, path: String = NotificationSettings.defaultPath) -> Reply {
        send("POST", path, key: nil, body: #"{"signedPayload":"\#(jws)"}"#)
    }

    /// The customer as `GET /v1/customers/{id}` answers now.
    func customer(_ user: String) -> Reply {
        send("GET", "/v1/customers/\(Self.escape(user))", key: Self.publicKey)
    }

    /// The history items of `user` of `kind`.
    func historyItems(_ user: String, kind: String) -> [[String: Any]] {
        let reply = send("GET", "/v1/customers/\(Self.escape(user))/history", query: ["limit": "500"])
        return (reply.json["items"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == kind }
    }
}

/// Renewal info of the Market example's subscriptions.
enum Renewals {
    static func make(_ chain: String, product: String = "market.pro.monthly", signed: Date,
                     autoRenew: AutoRenewStatus = .on, next: String? = nil, retry: Bool? = nil, grace: Date? = nil,
                     priceIncrease: PriceIncreaseStatus? = nil, intent: ExpirationIntent? = nil,
                     token: String? = nil) -> RenewalInfo {
        RenewalInfo(originalTransactionId: chain, productId: product, autoRenewProductId: next ?? product,
                    autoRenewStatus: autoRenew, expirationIntent: intent, isInBillingRetryPeriod: retry,
                    gracePeriodExpiresDate: grace, priceIncreaseStatus: priceIncrease, signedDate: signed,
                    environment: .sandbox, appAccountToken: token)
    }
}

extension Reply {
    /// `customer.subscriptions[0]`.
    var subscription: [String: Any] { (customer["subscriptions"] as? [[String: Any]])?.first ?? [:] }
    /// `result` of a notification answer.
    var result: String? { json["result"] as? String }
}

extension StoreTransaction {
    /// A copy signed at `date`.
    func signed(_ date: Date) -> StoreTransaction {
        var copy = self
        copy.signedDate = date
        return copy
    }
}
