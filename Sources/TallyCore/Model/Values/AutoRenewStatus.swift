/// Whether a subscription renews at the end of its period (`autoRenewStatus`).
///
/// Values Tally does not know are kept as they are, never dropped.
public struct AutoRenewStatus: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value as Apple writes it.
    public var rawValue: Int
    /// Wraps a raw value, known or not.
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }

    /// The subscription expires at the end of the period.
    public static let off = AutoRenewStatus(rawValue: 0)
    /// The subscription renews.
    public static let on = AutoRenewStatus(rawValue: 1)
}
