import Foundation

/// The `appData` object of a `RESCIND_CONSENT` notification.
public struct AppData: Sendable, Hashable, Codable {
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// `Sandbox` or `Production`.
    public var environment: StoreEnvironment?
    /// The customer's app transaction, as a JWS.
    public var signedAppTransactionInfo: String?
    /// Fields Tally does not model, kept as read.
    public var unknownFields: [String: JSONValue]
    /// ``signedAppTransactionInfo`` once verified and decoded; never encoded (not an Apple field).
    public var appTransaction: StoreAppTransaction?

    static let knownKeys: Set<String> = ["appAppleId", "bundleId", "environment", "signedAppTransactionInfo"]

    /// Creates app data.
    public init(
        appAppleId: Int64? = nil, bundleId: String? = nil, environment: StoreEnvironment? = nil,
        signedAppTransactionInfo: String? = nil, unknownFields: [String: JSONValue] = [:]
    ) {
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.environment = environment
        self.signedAppTransactionInfo = signedAppTransactionInfo
        self.unknownFields = unknownFields
    }

    /// Decodes Apple's `appData` JSON.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        self.init(
            appAppleId: try c.optional("appAppleId"), bundleId: try c.optional("bundleId"),
            environment: try c.optional("environment"),
            signedAppTransactionInfo: try c.optional("signedAppTransactionInfo"),
            unknownFields: try c.unknown(excluding: Self.knownKeys))
    }

    /// Encodes Apple's `appData` JSON.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.put(appAppleId, "appAppleId")
        try c.put(bundleId, "bundleId")
        try c.put(environment, "environment")
        try c.put(signedAppTransactionInfo, "signedAppTransactionInfo")
        try c.putUnknown(unknownFields)
    }
}
