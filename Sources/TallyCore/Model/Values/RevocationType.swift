/// How a transaction was revoked (`revocationType`).
///
/// Values Tally does not know are kept as they are, never dropped.
public struct RevocationType: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value as Apple writes it.
    public var rawValue: String
    /// Wraps a raw value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// A full refund.
    public static let refundFull = RevocationType(rawValue: "REFUND_FULL")
    /// A partial refund; see revocationPercentage.
    public static let refundProrated = RevocationType(rawValue: "REFUND_PRORATED")
    /// Family Sharing access was removed.
    public static let familyRevoke = RevocationType(rawValue: "FAMILY_REVOKE")
}
