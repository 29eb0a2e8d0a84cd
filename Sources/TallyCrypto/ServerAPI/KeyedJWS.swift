import Foundation

/// A compact ES256 JWS signed by an in-app purchase key that its header names (`kid`): the App Store Server API's
/// bearer tokens and Apple's offer signatures (promotional offer V2, introductory offer eligibility). Checks the
/// form and the signature only; each use checks its own claims.
public struct KeyedJWS: Sendable, Hashable {
    /// The key id of the header (`kid`).
    public var keyId: String
    /// The issuer id registered with the key.
    public var issuerId: String
    /// The header's `typ`, if any.
    public var type: String?
    /// The claims' bytes (the decoded payload).
    public var claims: Data

    /// The largest JWS looked at, in bytes.
    public static let maxBytes = 8_192

    /// Checks `token`: three base64url parts, a JSON header with `alg: ES256`, a `kid` that `key` knows, no
    /// `crit`, `typ` absent or `"JWT"`, and an ES256 signature by that key. The verified parts, or why not;
    /// never a crash.
    public static func verify(_ token: String, key: (String) -> (key: PublicKey, issuerId: String)?)
        -> Result<KeyedJWS, ServerAPITokenFailure>
    {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= maxBytes, parts.count == 3 else {
            return .failure(.init(.malformed, "a JWT has three base64url parts separated by dots"))
        }
        guard let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]) else {
            return .failure(.init(.malformed, "a part of the JWT is not base64url"))
        }
        guard let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any] else {
            return .failure(.init(.malformed, "the JWT's header must be a JSON object"))
        }
        guard header["alg"] as? String == "ES256" else {
            return .failure(.init(.unsupportedAlgorithm, "the JWT must be signed with ES256, not \(header["alg"] ?? "nothing")"))
        }
        if let type = header["typ"], type as? String != "JWT" {
            return .failure(.init(.malformed, "the JWT header's typ must be \"JWT\""))
        }
        guard header["crit"] == nil else {
            return .failure(.init(.malformed, "the JWT header has crit, which is not understood here"))
        }
        guard let keyId = header["kid"] as? String, !keyId.isEmpty else {
            return .failure(.init(.missingClaim, "the JWT header has no kid (the in-app purchase key id)"))
        }
        guard let known = key(keyId) else {
            return .failure(.init(.unknownKey, "no in-app purchase key has the id '\(keyId.prefix(64))'"))
        }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        let valid = signingInput.withUnsafeBytes { ECDSA.verifyES256(message: $0, rawSignature: signature, key: known.key) }
        guard valid else { return .failure(.init(.badSignature, "the JWT's signature does not verify with key '\(keyId)'")) }
        return .success(KeyedJWS(keyId: keyId, issuerId: known.issuerId, type: header["typ"] as? String,
                                 claims: Data(payloadBytes)))
    }
}
