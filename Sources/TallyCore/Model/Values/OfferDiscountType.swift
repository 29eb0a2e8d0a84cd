/// How an offer is paid (`offerDiscountType`).
///
/// Values Tally does not know are kept as they are, never dropped.
public struct OfferDiscountType: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value as Apple writes it.
    public var rawValue: String
    /// Wraps a raw value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// Free for the offer period.
    public static let freeTrial = OfferDiscountType(rawValue: "FREE_TRIAL")
    /// A discounted price each period.
    public static let payAsYouGo = OfferDiscountType(rawValue: "PAY_AS_YOU_GO")
    /// One discounted payment for the whole offer period.
    public static let payUpFront = OfferDiscountType(rawValue: "PAY_UP_FRONT")
    /// A discount on a one-time purchase.
    public static let oneTime = OfferDiscountType(rawValue: "ONE_TIME")
}
