/// The customer's answer to a price increase (`priceIncreaseStatus`).
///
/// Values Tally does not know are kept as they are, never dropped.
public struct PriceIncreaseStatus: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value as Apple writes it.
    public var rawValue: Int
    /// Wraps a raw value, known or not.
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }

    /// The customer has not responded.
    public static let noResponse = PriceIncreaseStatus(rawValue: 0)
    /// The customer consented, or no consent was needed.
    public static let consented = PriceIncreaseStatus(rawValue: 1)
}
