/// Why a transaction happened (`transactionReason`).
///
/// Values Tally does not know are kept as they are, never dropped.
public struct TransactionReason: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value as Apple writes it.
    public var rawValue: String
    /// Wraps a raw value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The customer bought it.
    public static let purchase = TransactionReason(rawValue: "PURCHASE")
    /// The App Store renewed a subscription.
    public static let renewal = TransactionReason(rawValue: "RENEWAL")
}
