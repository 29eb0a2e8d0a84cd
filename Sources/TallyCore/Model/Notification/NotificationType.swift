/// What happened, as Apple's `notificationType` names it. Unknown values are kept as they are.
public struct NotificationType: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value as Apple writes it.
    public var rawValue: String
    /// Wraps a raw value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// First subscription, or resubscribe after expiry.
    public static let subscribed = NotificationType(rawValue: "SUBSCRIBED")
    /// The subscription renewed.
    public static let didRenew = NotificationType(rawValue: "DID_RENEW")
    /// The customer changed the product that renews next.
    public static let didChangeRenewalPref = NotificationType(rawValue: "DID_CHANGE_RENEWAL_PREF")
    /// Auto-renew was turned on or off.
    public static let didChangeRenewalStatus = NotificationType(rawValue: "DID_CHANGE_RENEWAL_STATUS")
    /// An offer was redeemed.
    public static let offerRedeemed = NotificationType(rawValue: "OFFER_REDEEMED")
    /// A renewal failed for billing.
    public static let didFailToRenew = NotificationType(rawValue: "DID_FAIL_TO_RENEW")
    /// The billing grace period ended.
    public static let gracePeriodExpired = NotificationType(rawValue: "GRACE_PERIOD_EXPIRED")
    /// The subscription expired.
    public static let expired = NotificationType(rawValue: "EXPIRED")
    /// A price increase needs or got the customer's consent.
    public static let priceIncrease = NotificationType(rawValue: "PRICE_INCREASE")
    /// Apple refunded a purchase.
    public static let refund = NotificationType(rawValue: "REFUND")
    /// Apple declined a refund request.
    public static let refundDeclined = NotificationType(rawValue: "REFUND_DECLINED")
    /// Apple reversed a refund.
    public static let refundReversed = NotificationType(rawValue: "REFUND_REVERSED")
    /// Apple asks for consumption data for a refund request.
    public static let consumptionRequest = NotificationType(rawValue: "CONSUMPTION_REQUEST")
    /// Family-shared access ended.
    public static let revoke = NotificationType(rawValue: "REVOKE")
    /// One subscription's renewal date was extended.
    public static let renewalExtended = NotificationType(rawValue: "RENEWAL_EXTENDED")
    /// A mass renewal-date extension finished or failed for one subscription.
    public static let renewalExtension = NotificationType(rawValue: "RENEWAL_EXTENSION")
    /// A one-time purchase.
    public static let oneTimeCharge = NotificationType(rawValue: "ONE_TIME_CHARGE")
    /// A test notification.
    public static let test = NotificationType(rawValue: "TEST")
    /// An external purchase token was not reported.
    public static let externalPurchaseToken = NotificationType(rawValue: "EXTERNAL_PURCHASE_TOKEN")
    /// Consent for the app was withdrawn.
    public static let rescindConsent = NotificationType(rawValue: "RESCIND_CONSENT")
}
