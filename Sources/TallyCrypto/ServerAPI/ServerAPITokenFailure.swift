/// Why an App Store Server API token was refused (the API answers every one of them 401).
public struct ServerAPITokenFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Reason: String, Sendable, Hashable {
        /// Not a compact JWS with JSON header and claims, or a claim of the wrong type.
        case malformed
        /// Not ES256.
        case unsupportedAlgorithm
        /// `kid` names no registered key.
        case unknownKey
        /// The signature does not verify with the key.
        case badSignature
        /// `aud` is not `appstoreconnect-v1`.
        case wrongAudience
        /// `iss` is not the issuer of the key.
        case wrongIssuer
        /// `bid` is missing (Apple answers this one 400 `4000002`).
        case missingBundleId
        /// `kid`, `iss`, `aud` or `exp` is missing.
        case missingClaim
        /// `exp` has passed.
        case expired
        /// `iat` is in the future.
        case notYetValid
        /// Valid for more than 60 minutes.
        case lifetimeTooLong
    }

    /// The kind of problem.
    public var reason: Reason
    /// What is wrong, for a person.
    public var message: String

    /// Creates a failure.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// "reason: message".
    public var description: String { "\(reason.rawValue): \(message)" }
}
