import TallyCore
import TallyVerify

/// How posted transactions and receipts are verified.
public struct VerificationSettings: Sendable {
    /// The bundle id every payload must carry.
    public var bundleId: String
    /// The app's Apple id; required when ``environments`` has Production.
    public var appAppleId: Int64?
    /// The environments accepted.
    public var environments: [StoreEnvironment]
    /// Trusted roots for signed transactions (JWS).
    public var roots: [Certificate]
    /// Trusted roots for legacy receipts.
    public var receiptRoots: [Certificate]
    /// Whether to check revocation online (OCSP) and judge certificates now.
    public var onlineChecks: Bool

    /// Creates settings; by default Apple's roots and Production only.
    public init(bundleId: String, appAppleId: Int64? = nil, environments: [StoreEnvironment] = [.production],
                roots: [Certificate] = [AppleRootCertificates.appleRootCAG3],
                receiptRoots: [Certificate] = VerificationSettings.appleReceiptRoots, onlineChecks: Bool = false) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environments = environments
        self.roots = roots
        self.receiptRoots = receiptRoots
        self.onlineChecks = onlineChecks
    }

    /// Apple Inc. Root CA, the built-in receipt root.
    public static var appleReceiptRoots: [Certificate] {
        Certificate(der: ReceiptVerifier.appleIncRootCertificate).map { [$0] } ?? []
    }
}
