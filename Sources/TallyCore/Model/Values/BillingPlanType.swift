/// The billing plan of a subscription (`billingPlanType`).
///
/// Values Tally does not know are kept as they are, never dropped.
public struct BillingPlanType: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value as Apple writes it.
    public var rawValue: String
    /// Wraps a raw value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The whole period is billed at its start.
    public static let billedUpFront = BillingPlanType(rawValue: "BILLED_UPFRONT")
    /// Billed monthly under a 12-month commitment.
    public static let monthly = BillingPlanType(rawValue: "MONTHLY")
}
