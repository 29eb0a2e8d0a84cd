import Foundation

/// The short-lived token an app's own backend issues to a signed-in user, which the app sends to `tally serve`
/// with the public key (header `Tally-Customer-Token`) to prove it speaks for that customer: a compact JWS
/// (`{"alg":"HS256"|"ES256","typ":"JWT","kid":…}`) with claims `sub` (the appUserId), `aud` (the server's
/// audience), `exp` and optionally `iat` and `nbf`, in whole seconds (RFC 7519).
///
/// One type for both sides: the app's backend (or `tally serve customer-token`) signs it, the server checks it.
public struct CustomerToken: Sendable, Hashable {
    /// The customer the token speaks for (`sub`), compared as bytes.
    public var appUserId: String
    /// Who the token is for (`aud`).
    public var audience: String
    /// When it was issued (`iat`, whole seconds); nil leaves the claim out.
    public var issuedAt: Date?
    /// When it stops being valid (`exp`, whole seconds).
    public var expiresAt: Date

    /// Creates the claims of a token.
    public init(appUserId: String, audience: String, issuedAt: Date?, expiresAt: Date) {
        self.appUserId = appUserId
        self.audience = audience
        self.issuedAt = issuedAt.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
        self.expiresAt = Date(timeIntervalSince1970: expiresAt.timeIntervalSince1970.rounded(.down))
    }

    /// The compact JWT signed with `key` (its `kid` in the header when it has one).
    /// - Throws: ``CryptoError`` when OpenSSL cannot sign, or the key holds no private half.
    public func signed(with key: CustomerTokenKey) throws(CryptoError) -> String {
        var header = #"{"alg":""# + key.algorithm.rawValue + #"","typ":"JWT""#
        if let id = key.id { header += #","kid":"# + ServerAPIToken.jsonString(id) }
        header += "}"
        var claims = #"{"sub":"# + ServerAPIToken.jsonString(appUserId) + #","aud":"# + ServerAPIToken.jsonString(audience)
        if let issuedAt { claims += #","iat":"# + String(Int64(issuedAt.timeIntervalSince1970)) }
        claims += #","exp":"# + String(Int64(expiresAt.timeIntervalSince1970)) + "}"
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature: [UInt8]
        switch key.material {
        case .secret(let secret):
            signature = HMACSHA256.authenticationCode(for: Array(signingInput.utf8), key: secret)
        case .publicKey(_, let privateKey):
            guard let privateKey else {
                throw CryptoError(call: "sign", context: "customer token", reason: "an ES256 customer-token key needs its private key to sign")
            }
            let der = try privateKey.signature(digest: ECDSA.sha256(Array(signingInput.utf8)))
            signature = try CryptoError.require(ECDSA.rawSignature(fromDER: der), "d2i_ECDSA_SIG", "ES256 signature")
        }
        return signingInput + "." + Base64URL.encode(signature)
    }
}
