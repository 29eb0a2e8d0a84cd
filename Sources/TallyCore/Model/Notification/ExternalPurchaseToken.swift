import Foundation

/// The `externalPurchaseToken` object of an `EXTERNAL_PURCHASE_TOKEN` notification.
public struct ExternalPurchaseToken: Sendable, Hashable, Codable {
    /// The token's unique id; sandbox tokens begin with `SANDBOX`.
    public var externalPurchaseId: String?
    /// When the token was created.
    public var tokenCreationDate: Date?
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// Fields Tally does not model, kept as read.
    public var unknownFields: [String: JSONValue]

    static let knownKeys: Set<String> = ["externalPurchaseId", "tokenCreationDate", "appAppleId", "bundleId"]

    /// Creates a token.
    public init(
        externalPurchaseId: String? = nil, tokenCreationDate: Date? = nil, appAppleId: Int64? = nil,
        bundleId: String? = nil, unknownFields: [String: JSONValue] = [:]
    ) {
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.unknownFields = unknownFields
    }

    /// The environment Apple's library infers: Sandbox when the id begins with `SANDBOX`, else Production.
    public var environment: StoreEnvironment {
        (externalPurchaseId ?? "").hasPrefix("SANDBOX") ? .sandbox : .production
    }

    /// Decodes Apple's `externalPurchaseToken` JSON.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        self.init(
            externalPurchaseId: try c.optional("externalPurchaseId"),
            tokenCreationDate: try c.millis("tokenCreationDate"), appAppleId: try c.optional("appAppleId"),
            bundleId: try c.optional("bundleId"), unknownFields: try c.unknown(excluding: Self.knownKeys))
    }

    /// Encodes Apple's `externalPurchaseToken` JSON.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.put(externalPurchaseId, "externalPurchaseId")
        try c.putMillis(tokenCreationDate, "tokenCreationDate")
        try c.put(appAppleId, "appAppleId")
        try c.put(bundleId, "bundleId")
        try c.putUnknown(unknownFields)
    }
}
