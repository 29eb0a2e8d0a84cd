import Foundation

/// The signed record of the customer's purchase of the app itself, with the field names of Apple's
/// `AppTransaction` (App Store Server API / StoreKit 2). Every field is optional, as in Apple's model.
public struct StoreAppTransaction: Sendable, Hashable, Codable {
    /// The environment that signed it (`Production`, `Sandbox`, `Xcode`).
    public var receiptType: StoreEnvironment?
    /// The app's Apple ID (absent in Xcode).
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app version this transaction applies to.
    public var applicationVersion: String?
    /// The app version's external identifier.
    public var versionExternalIdentifier: Int64?
    /// When the App Store signed it; Apple's verifier uses it as the signing date.
    public var receiptCreationDate: Date?
    /// When the customer first got the app.
    public var originalPurchaseDate: Date?
    /// The app version the customer first got.
    public var originalApplicationVersion: String?
    /// Base64 value tying the app transaction to one device.
    public var deviceVerification: String?
    /// The UUID nonce used for ``deviceVerification``.
    public var deviceVerificationNonce: String?
    /// The pre-order date, if the app was pre-ordered.
    public var preorderDate: Date?
    /// The app download transaction id.
    public var appTransactionId: String?
    /// The platform of the first purchase (`iOS`, `macOS`, `tvOS`, `visionOS`).
    public var originalPlatform: String?
    /// Fields Tally does not model, kept as read.
    public var unknownFields: [String: JSONValue]

    /// Creates an app transaction.
    public init(
        receiptType: StoreEnvironment? = nil, appAppleId: Int64? = nil, bundleId: String? = nil,
        applicationVersion: String? = nil, versionExternalIdentifier: Int64? = nil,
        receiptCreationDate: Date? = nil, originalPurchaseDate: Date? = nil,
        originalApplicationVersion: String? = nil, deviceVerification: String? = nil,
        deviceVerificationNonce: String? = nil, preorderDate: Date? = nil, appTransactionId: String? = nil,
        originalPlatform: String? = nil, unknownFields: [String: JSONValue] = [:]
    ) {
        self.receiptType = receiptType
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.versionExternalIdentifier = versionExternalIdentifier
        self.receiptCreationDate = receiptCreationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.preorderDate = preorderDate
        self.appTransactionId = appTransactionId
        self.originalPlatform = originalPlatform
        self.unknownFields = unknownFields
    }
}
