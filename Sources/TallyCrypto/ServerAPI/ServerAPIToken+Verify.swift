import Foundation

extension ServerAPIToken {
    /// Checks `token` as the App Store Server API does at `now`: compact ES256 JWS with `kid`, signed by the key
    /// `key(kid)` returns (nil: an unknown key), `aud` `appstoreconnect-v1`, an `iss` that matches the key's
    /// issuer when `issuer(kid)` names one, a `bid`, not expired, valid for at most an hour, `iat` not in the
    /// future beyond `leeway`. The token's claims, or why it is refused; never a crash.
    public static func verify(_ token: String, at now: Date, leeway: TimeInterval = 60,
                              key: (String) -> (key: PublicKey, issuerId: String)?)
        -> Result<ServerAPIToken, ServerAPITokenFailure>
    {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= 8_192, parts.count == 3 else {
            return .failure(.init(.malformed, "a JWT has three base64url parts separated by dots"))
        }
        guard let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]) else {
            return .failure(.init(.malformed, "a part of the JWT is not base64url"))
        }
        guard let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
              let claims = try? JSONDecoder().decode(Claims.self, from: Data(payloadBytes)) else {
            return .failure(.init(.malformed, "the JWT's header and claims must be JSON objects, with string "
                + "iss, aud and bid and whole-second iat and exp"))
        }
        guard header["alg"] as? String == "ES256" else {
            return .failure(.init(.unsupportedAlgorithm, "the JWT must be signed with ES256, not \(header["alg"] ?? "nothing")"))
        }
        if let type = header["typ"], type as? String != "JWT" {
            return .failure(.init(.malformed, "the JWT header's typ must be \"JWT\""))
        }
        guard header["crit"] == nil else {
            return .failure(.init(.malformed, "the JWT header has crit, which this API does not understand"))
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
        return claimsChecked(claims, keyId: keyId, issuer: known.issuerId, at: now, leeway: leeway)
    }

    /// The claims as sent; a claim of the wrong type fails the decoding (malformed), a missing one is nil.
    private struct Claims: Decodable {
        var iss: String?
        var aud: String?
        var bid: String?
        var iat: Int64?
        var exp: Int64?
    }

    private static func claimsChecked(_ claims: Claims, keyId: String, issuer: String, at now: Date,
                                      leeway: TimeInterval) -> Result<ServerAPIToken, ServerAPITokenFailure> {
        guard let audience = claims.aud else {
            return .failure(.init(.missingClaim, "the JWT has no aud claim (\"\(Self.audience)\")"))
        }
        guard audience == Self.audience else {
            return .failure(.init(.wrongAudience, "the JWT's aud is '\(audience.prefix(64))', not '\(Self.audience)'"))
        }
        guard let issuerId = claims.iss else {
            return .failure(.init(.missingClaim, "the JWT has no iss claim (the issuer id)"))
        }
        guard issuerId == issuer else {
            return .failure(.init(.wrongIssuer, "key '\(keyId)' belongs to another issuer than '\(issuerId.prefix(64))'"))
        }
        guard let bundleId = claims.bid, !bundleId.isEmpty else {
            return .failure(.init(.missingBundleId, "the JWT has no bid claim (the app's bundle id)"))
        }
        guard let expiry = claims.exp.map(Double.init) else {
            return .failure(.init(.missingClaim, "the JWT has no exp claim in whole seconds"))
        }
        let issued = claims.iat.map(Double.init)
        let nowSeconds = now.timeIntervalSince1970
        guard expiry > nowSeconds else { return .failure(.init(.expired, "the JWT expired at \(Int64(expiry))")) }
        if let issued, issued > nowSeconds + leeway {
            return .failure(.init(.notYetValid, "the JWT's iat \(Int64(issued)) is in the future"))
        }
        guard expiry - (issued ?? nowSeconds) <= Self.maximumLifetime else {
            return .failure(.init(.lifetimeTooLong, "a JWT may be valid for at most 60 minutes after its iat"))
        }
        return .success(ServerAPIToken(keyId: keyId, issuerId: issuerId, bundleId: bundleId,
                                       issuedAt: issued.map(Date.init(timeIntervalSince1970:)),
                                       expiresAt: Date(timeIntervalSince1970: expiry)))
    }
}
