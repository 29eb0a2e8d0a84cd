/// The refinement of a notification, as Apple's `subtype` names it. Unknown values are kept as they are.
public struct NotificationSubtype: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value as Apple writes it.
    public var rawValue: String
    /// Wraps a raw value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// First subscription in the group.
    public static let initialBuy = NotificationSubtype(rawValue: "INITIAL_BUY")
    /// Subscribed again after expiry.
    public static let resubscribe = NotificationSubtype(rawValue: "RESUBSCRIBE")
    /// Downgrade, effective at the next renewal.
    public static let downgrade = NotificationSubtype(rawValue: "DOWNGRADE")
    /// Upgrade, effective immediately.
    public static let upgrade = NotificationSubtype(rawValue: "UPGRADE")
    /// Auto-renew turned on.
    public static let autoRenewEnabled = NotificationSubtype(rawValue: "AUTO_RENEW_ENABLED")
    /// Auto-renew turned off.
    public static let autoRenewDisabled = NotificationSubtype(rawValue: "AUTO_RENEW_DISABLED")
    /// Expired after the customer turned auto-renew off.
    public static let voluntary = NotificationSubtype(rawValue: "VOLUNTARY")
    /// Billing retry ended without recovery.
    public static let billingRetry = NotificationSubtype(rawValue: "BILLING_RETRY")
    /// The customer did not consent to a price increase.
    public static let priceIncrease = NotificationSubtype(rawValue: "PRICE_INCREASE")
    /// Renewal failed inside the billing grace period.
    public static let gracePeriod = NotificationSubtype(rawValue: "GRACE_PERIOD")
    /// Price increase consent pending.
    public static let pending = NotificationSubtype(rawValue: "PENDING")
    /// Price increase accepted.
    public static let accepted = NotificationSubtype(rawValue: "ACCEPTED")
    /// A failed renewal succeeded during billing retry.
    public static let billingRecovery = NotificationSubtype(rawValue: "BILLING_RECOVERY")
    /// The product was not for sale at renewal.
    public static let productNotForSale = NotificationSubtype(rawValue: "PRODUCT_NOT_FOR_SALE")
    /// A mass renewal-date extension finished.
    public static let summary = NotificationSubtype(rawValue: "SUMMARY")
    /// A mass renewal-date extension failed for one subscription.
    public static let failure = NotificationSubtype(rawValue: "FAILURE")
    /// An external purchase token was not reported.
    public static let unreported = NotificationSubtype(rawValue: "UNREPORTED")
}
