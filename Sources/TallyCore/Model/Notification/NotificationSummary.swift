import Foundation

/// The `summary` object of a `RENEWAL_EXTENSION` / `SUMMARY` notification.
public struct NotificationSummary: Sendable, Hashable, Codable {
    /// `Sandbox` or `Production`.
    public var environment: StoreEnvironment?
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The product whose subscribers were extended.
    public var productId: String?
    /// The UUID of the extension request.
    public var requestIdentifier: String?
    /// The storefronts the request was limited to.
    public var storefrontCountryCodes: [String]?
    /// Subscriptions extended.
    public var succeededCount: Int64?
    /// Subscriptions not extended.
    public var failedCount: Int64?
    /// Fields Tally does not model, kept as read.
    public var unknownFields: [String: JSONValue]

    static let knownKeys: Set<String> = [
        "environment", "appAppleId", "bundleId", "productId", "requestIdentifier", "storefrontCountryCodes",
        "succeededCount", "failedCount",
    ]

    /// Creates a summary.
    public init(
        environment: StoreEnvironment? = nil, appAppleId: Int64? = nil, bundleId: String? = nil,
        productId: String? = nil, requestIdentifier: String? = nil, storefrontCountryCodes: [String]? = nil,
        succeededCount: Int64? = nil, failedCount: Int64? = nil, unknownFields: [String: JSONValue] = [:]
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.productId = productId
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.succeededCount = succeededCount
        self.failedCount = failedCount
        self.unknownFields = unknownFields
    }

    /// Decodes Apple's `summary` JSON.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        self.init(
            environment: try c.optional("environment"), appAppleId: try c.optional("appAppleId"),
            bundleId: try c.optional("bundleId"), productId: try c.optional("productId"),
            requestIdentifier: try c.optional("requestIdentifier"),
            storefrontCountryCodes: try c.optional("storefrontCountryCodes"),
            succeededCount: try c.optional("succeededCount"), failedCount: try c.optional("failedCount"),
            unknownFields: try c.unknown(excluding: Self.knownKeys))
    }

    /// Encodes Apple's `summary` JSON.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.put(environment, "environment")
        try c.put(appAppleId, "appAppleId")
        try c.put(bundleId, "bundleId")
        try c.put(productId, "productId")
        try c.put(requestIdentifier, "requestIdentifier")
        try c.put(storefrontCountryCodes, "storefrontCountryCodes")
        try c.put(succeededCount, "succeededCount")
        try c.put(failedCount, "failedCount")
        try c.putUnknown(unknownFields)
    }
}
