import TallyCore

/// The payload fields verification looks at, read leniently from any signed payload kind.
/// A field of an unexpected JSON type reads as absent, so it fails the check that needs it.
public struct SignedClaims: Sendable, Hashable, Decodable {
    /// The app and environment named by a notification's `data`, `summary`, `appData` or `externalPurchaseToken`.
    public struct AppIdentity: Sendable, Hashable, Decodable {
        /// `bundleId`.
        public var bundleId: String?
        /// `appAppleId`.
        public var appAppleId: Int64?
        /// `environment`.
        public var environment: String?
        /// `externalPurchaseId` (external purchase tokens only).
        public var externalPurchaseId: String?

        /// An identity with these fields.
        package init(bundleId: String?, appAppleId: Int64?, environment: String?, externalPurchaseId: String?) {
            self.bundleId = bundleId
            self.appAppleId = appAppleId
            self.environment = environment
            self.externalPurchaseId = externalPurchaseId
        }

        /// Reads the identity fields leniently.
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: AnyCodingKey.self)
            bundleId = c.lenient("bundleId")
            appAppleId = c.lenient("appAppleId")
            environment = c.lenient("environment")
            externalPurchaseId = c.lenient("externalPurchaseId")
        }
    }

    /// `signedDate` in milliseconds.
    public var signedDate: Double?
    /// `receiptCreationDate` in milliseconds (app transactions).
    public var receiptCreationDate: Double?
    /// `bundleId`.
    public var bundleId: String?
    /// `environment`.
    public var environment: String?
    /// `appAppleId`.
    public var appAppleId: Int64?
    /// `receiptType` (app transactions).
    public var receiptType: String?
    /// `notificationType` (notifications).
    public var notificationType: String?
    /// `transactionId` (transactions).
    public var transactionId: String?
    /// Whether `autoRenewStatus` is present (renewal info).
    public var hasAutoRenewStatus: Bool
    /// A notification's `data`.
    public var data: AppIdentity?
    /// A notification's `summary`.
    public var summary: AppIdentity?
    /// A notification's `externalPurchaseToken`.
    public var externalPurchaseToken: AppIdentity?
    /// A notification's `appData`.
    public var appData: AppIdentity?

    /// Reads the claims leniently; fails only when the payload is not a JSON object.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        signedDate = c.lenient("signedDate")
        receiptCreationDate = c.lenient("receiptCreationDate")
        bundleId = c.lenient("bundleId")
        environment = c.lenient("environment")
        appAppleId = c.lenient("appAppleId")
        receiptType = c.lenient("receiptType")
        notificationType = c.lenient("notificationType")
        transactionId = c.lenient("transactionId")
        hasAutoRenewStatus = c.contains(AnyCodingKey("autoRenewStatus"))
        data = c.lenient("data")
        summary = c.lenient("summary")
        externalPurchaseToken = c.lenient("externalPurchaseToken")
        appData = c.lenient("appData")
    }

    /// The signing time Apple's verifier uses: `signedDate`, else `receiptCreationDate`, in milliseconds.
    package var signingMilliseconds: (name: String, value: Double)? {
        if let signedDate { return ("signedDate", signedDate) }
        if let receiptCreationDate { return ("receiptCreationDate", receiptCreationDate) }
        return nil
    }
}

extension KeyedDecodingContainer where Key == AnyCodingKey {
    /// The string at `key`, or nil when absent, null or not a string (the direct, non-generic decoder path).
    package func lenient(_ key: String, as type: String.Type = String.self) -> String? {
        let codingKey = AnyCodingKey(key)
        guard contains(codingKey) else { return nil }
        return (try? decodeIfPresent(String.self, forKey: codingKey)) ?? nil
    }

    /// The number at `key` as a Double, or nil when absent, null or not a number.
    package func lenient(_ key: String, as type: Double.Type = Double.self) -> Double? {
        let codingKey = AnyCodingKey(key)
        guard contains(codingKey) else { return nil }
        return (try? decodeIfPresent(Double.self, forKey: codingKey)) ?? nil
    }

    /// The integer at `key`, or nil when absent, null or not an integer.
    package func lenient(_ key: String, as type: Int64.Type = Int64.self) -> Int64? {
        let codingKey = AnyCodingKey(key)
        guard contains(codingKey) else { return nil }
        return (try? decodeIfPresent(Int64.self, forKey: codingKey)) ?? nil
    }

    /// The value at `key`, or nil when absent, null or of another JSON type.
    func lenient<T: Decodable>(_ key: String, as type: T.Type = T.self) -> T? {
        let codingKey = AnyCodingKey(key)
        // `contains` first: most claims are absent from most payloads, and the check is far cheaper
        // than a generic decode attempt.
        guard contains(codingKey) else { return nil }
        return (try? decodeIfPresent(T.self, forKey: codingKey)) ?? nil
    }
}
