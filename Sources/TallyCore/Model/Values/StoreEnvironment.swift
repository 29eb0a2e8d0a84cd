/// The server environment that signed the data (`environment`, `receiptType`).
///
/// Values Tally does not know are kept as they are, never dropped.
public struct StoreEnvironment: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value as Apple writes it.
    public var rawValue: String
    /// Wraps a raw value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// Apple's sandbox.
    public static let sandbox = StoreEnvironment(rawValue: "Sandbox")
    /// The App Store.
    public static let production = StoreEnvironment(rawValue: "Production")
    /// StoreKit Testing in Xcode.
    public static let xcode = StoreEnvironment(rawValue: "Xcode")
    /// Local unit tests.
    public static let localTesting = StoreEnvironment(rawValue: "LocalTesting")
}
