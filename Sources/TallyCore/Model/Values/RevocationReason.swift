/// Why Apple refunded or revoked a transaction (`revocationReason`).
///
/// Values Tally does not know are kept as they are, never dropped.
public struct RevocationReason: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value as Apple writes it.
    public var rawValue: Int
    /// Wraps a raw value, known or not.
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }

    /// Another reason, such as an accidental purchase or Family Sharing.
    public static let other = RevocationReason(rawValue: 0)
    /// An actual or perceived issue in the app.
    public static let appIssue = RevocationReason(rawValue: 1)
}
