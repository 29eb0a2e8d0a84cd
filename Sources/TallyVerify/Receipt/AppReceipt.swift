import Foundation

/// The decoded payload of a legacy App Store app receipt (PKCS#7), with Apple's attribute meanings.
///
/// Attribute numbers follow Apple's receipt field list; types Tally does not model are kept in
/// ``unknownAttributes``. Parse one without verification with ``parse(base64:)``; verify one with
/// ``ReceiptVerifier``.
public struct AppReceipt: Sendable, Hashable, Codable {
    /// Type 0: `Production`, `ProductionSandbox` or `Xcode`.
    public var receiptType: String?
    /// Type 1: the app's App Store id; 0 in sandbox and Xcode receipts.
    public var appAppleId: Int64?
    /// Type 2: the app's bundle identifier.
    public var bundleId: String
    /// Type 3: the app version (`CFBundleVersion` on iOS).
    public var applicationVersion: String?
    /// Type 4: opaque bytes, input to the device hash check.
    public var opaqueValue: Data?
    /// Type 5: SHA-1 over device identifier, opaque value and bundle id.
    public var sha1Hash: Data?
    /// Type 12: when the App Store created the receipt; the instant its signature is checked at.
    public var creationDate: Date
    /// Type 21: when the receipt expires (Volume Purchase Program apps and Xcode receipts); nil = never.
    public var expirationDate: Date?
    /// Type 18: when the app was first bought.
    public var originalPurchaseDate: Date?
    /// Type 19: the app version first bought (`1.0` in sandbox).
    public var originalApplicationVersion: String?
    /// Type 10: the age rating, e.g. `4+`.
    public var ageRating: String?
    /// Type 17: the in-app purchase records, in the order the receipt encodes them.
    public var inAppPurchases: [InAppPurchase]
    /// Attributes of types not listed above, as read.
    public var unknownAttributes: [ReceiptAttribute]

    /// Creates a receipt from its fields.
    public init(
        receiptType: String? = nil, appAppleId: Int64? = nil, bundleId: String, applicationVersion: String? = nil,
        opaqueValue: Data? = nil, sha1Hash: Data? = nil, creationDate: Date, expirationDate: Date? = nil,
        originalPurchaseDate: Date? = nil, originalApplicationVersion: String? = nil, ageRating: String? = nil,
        inAppPurchases: [InAppPurchase] = [], unknownAttributes: [ReceiptAttribute] = []
    ) {
        self.receiptType = receiptType
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.opaqueValue = opaqueValue
        self.sha1Hash = sha1Hash
        self.creationDate = creationDate
        self.expirationDate = expirationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.ageRating = ageRating
        self.inAppPurchases = inAppPurchases
        self.unknownAttributes = unknownAttributes
    }

    /// True for receipts made by StoreKit Testing in Xcode (type 0 is `Xcode`).
    public var isXcodeReceipt: Bool { receiptType == "Xcode" }
}
