/// Why signed data or a receipt did not verify. Verification returns this in a `Result`; it never crashes.
///
/// Reasons carry the names Apple's app-store-server-library uses, so logs read the same.
public struct VerificationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The failure class, named as Apple's library names it.
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// Malformed data, a bad signature, an untrusted or broken chain.
        case verificationFailure = "VERIFICATION_FAILURE"
        /// The bundle id (or app Apple id) is not the configured one.
        case invalidAppIdentifier = "INVALID_APP_IDENTIFIER"
        /// The environment is not the configured one.
        case invalidEnvironment = "INVALID_ENVIRONMENT"
        /// The `x5c` header does not hold exactly three certificates.
        case invalidChainLength = "INVALID_CHAIN_LENGTH"
        /// A certificate could not be parsed, or is not valid at the effective date.
        case invalidCertificate = "INVALID_CERTIFICATE"
        /// An online check could not be completed; trying again later may succeed.
        case retryableVerificationFailure = "RETRYABLE_VERIFICATION_FAILURE"
    }

    /// The failure class.
    public var reason: Reason
    /// What exactly failed, for a person ("leaf certificate expired 2023-10-12, signedDate 2024-02-02").
    public var detail: String

    /// Creates a failure.
    public init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    public var description: String { "\(reason.rawValue): \(detail)" }
}
