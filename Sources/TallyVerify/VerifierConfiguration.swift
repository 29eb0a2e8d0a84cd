import Foundation
import TallyCore
import TallySignedData

/// How a ``SignedDataVerifier`` decides: trusted roots, the expected app and environment, online checks.
public struct VerifierConfiguration: Sendable {
    /// Roots a chain must lead to. The root inside a JWS is never trusted by itself.
    public var rootCertificates: [Certificate]
    /// The expected `bundleId`; nil means the bundle id is not checked.
    public var bundleId: String?
    /// The expected `appAppleId`; required for `StoreEnvironment.production`, compared only there.
    public var appAppleId: Int64?
    /// The expected environment. `Xcode` and `LocalTesting` skip signature and chain checks, as
    /// Apple's library does, and check only the payload fields.
    public var environment: StoreEnvironment
    /// Whether to check revocation over the network (OCSP) and evaluate certificates at the current time.
    public var onlineChecks: Bool
    /// The time certificates are evaluated at; nil follows Apple: the payload's `signedDate` offline,
    /// the current time online.
    public var effectiveDate: EffectiveDatePolicy?
    /// Adds OpenSSL's X509_STRICT profile checks (Apple's Python library default; its own tests turn
    /// it off because Apple's test certificates lack key identifiers). Off by default.
    public var strictChecks: Bool
    /// Whether a notification's nested `signedTransactionInfo`, `signedRenewalInfo` and
    /// `signedAppTransactionInfo` are verified too; a nested failure fails the notification.
    public var verifiesNestedPayloads: Bool
    /// Longest JWS accepted, in bytes; real App Store JWS are under 20 KB.
    public var maximumLength: Int
    /// What an online revocation check does when the responder cannot be reached.
    public var revocationPolicy: RevocationPolicy

    /// Creates a configuration; by default trusts Apple Root CA - G3 only.
    public init(
        rootCertificates: [Certificate] = [AppleRootCertificates.appleRootCAG3],
        bundleId: String?, appAppleId: Int64? = nil, environment: StoreEnvironment,
        onlineChecks: Bool = false, effectiveDate: EffectiveDatePolicy? = nil, strictChecks: Bool = false,
        verifiesNestedPayloads: Bool = true, maximumLength: Int = AppleSignedData.maximumJWSLength,
        revocationPolicy: RevocationPolicy = .hardFail
    ) {
        self.rootCertificates = rootCertificates
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.onlineChecks = onlineChecks
        self.effectiveDate = effectiveDate
        self.strictChecks = strictChecks
        self.verifiesNestedPayloads = verifiesNestedPayloads
        self.maximumLength = maximumLength
        self.revocationPolicy = revocationPolicy
    }

    /// Whether this environment skips signature and chain checks (Xcode, LocalTesting).
    var skipsSignature: Bool { AppleSignedData.skipsSignature(environment) }
}

/// What an online revocation check does when the OCSP responder cannot be reached.
public enum RevocationPolicy: Sendable, Hashable {
    /// Fail with `RETRYABLE_VERIFICATION_FAILURE` (Apple's behaviour).
    case hardFail
    /// Accept the certificate when the responder is unreachable; a `revoked` answer still fails.
    case softFail
}

/// A configuration a verifier cannot work with.
public struct VerifierConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and what to do.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
