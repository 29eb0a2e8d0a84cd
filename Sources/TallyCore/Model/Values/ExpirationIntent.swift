/// Why a subscription expired (`expirationIntent`).
///
/// Values Tally does not know are kept as they are, never dropped.
public struct ExpirationIntent: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value as Apple writes it.
    public var rawValue: Int
    /// Wraps a raw value, known or not.
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }

    /// The customer turned auto-renew off.
    public static let customerCancelled = ExpirationIntent(rawValue: 1)
    /// A billing error.
    public static let billingError = ExpirationIntent(rawValue: 2)
    /// The customer did not consent to a price increase.
    public static let priceIncreaseDeclined = ExpirationIntent(rawValue: 3)
    /// The product was not available at renewal.
    public static let productUnavailable = ExpirationIntent(rawValue: 4)
    /// Another reason.
    public static let other = ExpirationIntent(rawValue: 5)
}
