import TallyCore

/// The kinds of App Store signed data, each with its own payload checks.
public enum SignedPayloadKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// `signedTransactionInfo` → ``StoreTransaction``: bundle id, then environment.
    case transaction
    /// `signedRenewalInfo` → ``RenewalInfo``: environment only.
    case renewalInfo = "renewal"
    /// A notification's `signedPayload` → ``ServerNotification``: app and environment from its
    /// `data`, `summary`, `externalPurchaseToken` or `appData`.
    case notification
    /// `signedAppTransactionInfo` → ``StoreAppTransaction``: bundle id, app Apple id, `receiptType`.
    case appTransaction = "app-transaction"

    /// The kind a decoded payload looks like, by its fields; nil if none fits.
    package static func detect(_ claims: SignedClaims) -> SignedPayloadKind? {
        if claims.notificationType != nil { return .notification }
        if claims.transactionId != nil { return .transaction }
        if claims.receiptType != nil, claims.appAppleId != nil || claims.bundleId != nil { return .appTransaction }
        if claims.hasAutoRenewStatus { return .renewalInfo }
        return nil
    }
}
