import Foundation

/// The `data` object of a notification: the app, and the signed transaction and renewal info.
public struct NotificationData: Sendable, Hashable, Codable {
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app's build version (CFBundleVersion).
    public var bundleVersion: String?
    /// `Sandbox` or `Production`.
    public var environment: StoreEnvironment?
    /// The transaction the event is about, as a JWS.
    public var signedTransactionInfo: String?
    /// The subscription's renewal info, as a JWS.
    public var signedRenewalInfo: String?
    /// Subscription status as of the notification's `signedDate`: 1 active, 2 expired, 3 billing retry,
    /// 4 grace period, 5 revoked.
    public var status: Int?
    /// Why the customer asked for a refund (`CONSUMPTION_REQUEST` only).
    public var consumptionRequestReason: String?
    /// Fields Tally does not model, kept as read.
    public var unknownFields: [String: JSONValue]
    /// ``signedTransactionInfo`` once verified and decoded; never encoded (not an Apple field).
    public var transactionInfo: StoreTransaction?
    /// ``signedRenewalInfo`` once verified and decoded; never encoded (not an Apple field).
    public var renewalInfo: RenewalInfo?

    /// Creates notification data.
    public init(
        appAppleId: Int64? = nil, bundleId: String? = nil, bundleVersion: String? = nil,
        environment: StoreEnvironment? = nil, signedTransactionInfo: String? = nil, signedRenewalInfo: String? = nil,
        status: Int? = nil, consumptionRequestReason: String? = nil, unknownFields: [String: JSONValue] = [:]
    ) {
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.bundleVersion = bundleVersion
        self.environment = environment
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.status = status
        self.consumptionRequestReason = consumptionRequestReason
        self.unknownFields = unknownFields
    }

    static let knownKeys: Set<String> = [
        "appAppleId", "bundleId", "bundleVersion", "environment", "signedTransactionInfo", "signedRenewalInfo",
        "status", "consumptionRequestReason",
    ]

    /// Decodes Apple's `data` JSON.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        self.init(
            appAppleId: try c.optional("appAppleId"), bundleId: try c.optional("bundleId"),
            bundleVersion: try c.optional("bundleVersion"), environment: try c.optional("environment"),
            signedTransactionInfo: try c.optional("signedTransactionInfo"),
            signedRenewalInfo: try c.optional("signedRenewalInfo"), status: try c.optional("status"),
            consumptionRequestReason: try c.optional("consumptionRequestReason"),
            unknownFields: try c.unknown(excluding: Self.knownKeys))
    }

    /// Encodes Apple's fields only.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.put(appAppleId, "appAppleId")
        try c.put(bundleId, "bundleId")
        try c.put(bundleVersion, "bundleVersion")
        try c.put(environment, "environment")
        try c.put(signedTransactionInfo, "signedTransactionInfo")
        try c.put(signedRenewalInfo, "signedRenewalInfo")
        try c.put(status, "status")
        try c.put(consumptionRequestReason, "consumptionRequestReason")
        try c.putUnknown(unknownFields)
    }
}
