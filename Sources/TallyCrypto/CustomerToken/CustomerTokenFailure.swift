/// Why a customer token was refused.
public struct CustomerTokenFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Reason: String, Sendable, Hashable {
        /// Not a compact JWS with a JSON header and claims, or a claim of the wrong type.
        case malformed
        /// `alg` is not the algorithm of a configured key (`none` never is).
        case unsupportedAlgorithm
        /// `kid` names no configured key.
        case unknownKey
        /// The signature does not verify with any key it may use.
        case badSignature
        /// `aud` does not name this server's audience.
        case wrongAudience
        /// `sub` or `exp` is missing.
        case missingClaim
        /// `exp` has passed.
        case expired
        /// `iat` or `nbf` is in the future.
        case notYetValid
        /// Valid for longer than the server allows.
        case lifetimeTooLong
    }

    /// The kind of problem.
    public var reason: Reason
    /// What is wrong, for a person (never the token's secret parts).
    public var message: String

    /// Creates a failure.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// "reason: message".
    public var description: String { "\(reason.rawValue): \(message)" }
}
