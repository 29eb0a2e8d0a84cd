/// Whether the customer bought the product or has it through Family Sharing (`inAppOwnershipType`).
///
/// Values Tally does not know are kept as they are, never dropped.
public struct OwnershipType: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value as Apple writes it.
    public var rawValue: String
    /// Wraps a raw value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The customer bought it.
    public static let purchased = OwnershipType(rawValue: "PURCHASED")
    /// A family member shares it with the customer.
    public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
}
