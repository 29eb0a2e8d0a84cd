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
        let verified: KeyedJWS
        switch KeyedJWS.verify(token, key: key) {
        case .success(let jws): verified = jws
        case .failure(let failure): return .failure(failure)
        }
        guard let claims = try? JSONDecoder().decode(Claims.self, from: verified.claims) else {
            return .failure(.init(.malformed, "the JWT's claims must be a JSON object, with string iss, aud and bid "
                + "and whole-second iat and exp"))
        }
        return claimsChecked(claims, keyId: verified.keyId, issuer: verified.issuerId, at: now, leeway: leeway)
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
