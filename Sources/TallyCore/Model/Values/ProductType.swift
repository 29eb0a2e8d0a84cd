/// The product type of a transaction, as Apple's `type` field spells it.
///
/// Values Tally does not know are kept as they are, never dropped.
public struct ProductType: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value as Apple writes it.
    public var rawValue: String
    /// Wraps a raw value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// An auto-renewable subscription.
    public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")
    /// A non-consumable product.
    public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
    /// A consumable product.
    public static let consumable = ProductType(rawValue: "Consumable")
    /// A non-renewing subscription.
    public static let nonRenewing = ProductType(rawValue: "Non-Renewing Subscription")
}
