import Foundation
import Testing
import TallyCrypto

/// App Store Server API tokens: what Tally signs, Apple's library and PyJWT accept; what Apple's library signs,
/// Tally accepts; every malformed, expired, over-long, misaddressed or wrongly signed token is refused.
@Suite struct ServerAPITokenTests {
    static let keyId = "2X9R4HXF34"
    static let issuerId = "57246542-96fe-1a63-e053-0824d011072a"
    static let bundleId = "com.example.market"
    let key: PrivateKey
    let now = Date()

    init() throws {
        key = try PrivateKey.newP256()
    }

    private func lookup(_ kid: String) -> (key: PublicKey, issuerId: String)? {
        kid == Self.keyId ? key.publicKey.map { ($0, Self.issuerId) } : nil
    }

    private func verify(_ token: String, at date: Date? = nil) -> Result<ServerAPIToken, ServerAPITokenFailure> {
        ServerAPIToken.verify(token, at: date ?? now, key: lookup)
    }

    private func reason(_ token: String, at date: Date? = nil) -> ServerAPITokenFailure.Reason? {
        if case .failure(let failure) = verify(token, at: date) { return failure.reason }
        return nil
    }

    /// A token with `claims` (raw JSON) and `header`, signed with `signer` (default: the registered key).
    private func forged(claims: String, header: String = #"{"alg":"ES256","kid":"2X9R4HXF34","typ":"JWT"}"#,
                        signer: PrivateKey? = nil) throws -> String {
        try JWSSigner(key: signer ?? key, chain: []).signed(payload: Array(claims.utf8), header: header)
    }

    private func claims(iat: Int64? = nil, exp: Int64, aud: String = "appstoreconnect-v1",
                        bid: String? = bundleId, iss: String = issuerId) -> String {
        var fields = [#""iss":"\#(iss)""#, #""exp":\#(exp)"#, #""aud":"\#(aud)""#]
        if let iat { fields.append(#""iat":\#(iat)"#) }
        if let bid { fields.append(#""bid":"\#(bid)""#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    private var nowSeconds: Int64 { Int64(now.timeIntervalSince1970) }

    @Test func aSignedTokenVerifiesWithItsClaims() throws {
        let token = try ServerAPIToken.fresh(keyId: Self.keyId, issuerId: Self.issuerId, bundleId: Self.bundleId,
                                             now: now).signed(with: key)
        let verified = try verify(token).get()
        #expect(verified.keyId == Self.keyId && verified.issuerId == Self.issuerId && verified.bundleId == Self.bundleId)
        #expect(verified.expiresAt.timeIntervalSince1970 == Double(nowSeconds + 300))
        #expect(reason(token, at: now.addingTimeInterval(301)) == .expired)
    }

    @Test func refusals() throws {
        let exp = nowSeconds + 300
        let other = try PrivateKey.newP256()
        let cases: [(String, String, ServerAPITokenFailure.Reason)] = [
            ("signed by another key", try forged(claims: claims(exp: exp), signer: other), .badSignature),
            ("an unknown kid", try forged(claims: claims(exp: exp), header: #"{"alg":"ES256","kid":"NOPE"}"#), .unknownKey),
            ("no kid", try forged(claims: claims(exp: exp), header: #"{"alg":"ES256"}"#), .missingClaim),
            ("alg HS256", try forged(claims: claims(exp: exp), header: #"{"alg":"HS256","kid":"2X9R4HXF34"}"#),
             .unsupportedAlgorithm),
            ("alg none", "eyJhbGciOiJub25lIiwia2lkIjoiMlg5UjRIWEYzNCJ9." + Base64URL.encode(Array(claims(exp: exp).utf8))
                + ".", .unsupportedAlgorithm),
            ("crit", try forged(claims: claims(exp: exp), header: #"{"alg":"ES256","kid":"2X9R4HXF34","crit":["x"]}"#),
             .malformed),
            ("another audience", try forged(claims: claims(exp: exp, aud: "appstoreconnect-v2")), .wrongAudience),
            ("another issuer", try forged(claims: claims(exp: exp, iss: "someone-else")), .wrongIssuer),
            ("no bid", try forged(claims: claims(exp: exp, bid: nil)), .missingBundleId),
            ("expired", try forged(claims: claims(iat: nowSeconds - 600, exp: nowSeconds - 1)), .expired),
            ("valid for 61 minutes", try forged(claims: claims(iat: nowSeconds, exp: nowSeconds + 3_660)), .lifetimeTooLong),
            ("no iat, expiring in 2 hours", try forged(claims: claims(exp: nowSeconds + 7_200)), .lifetimeTooLong),
            ("issued in the future", try forged(claims: claims(iat: nowSeconds + 600, exp: nowSeconds + 900)), .notYetValid),
            ("exp as a string", try forged(claims: #"{"iss":"\#(Self.issuerId)","exp":"\#(exp)","aud":"appstoreconnect-v1","bid":"x"}"#),
             .malformed),
            ("exp as a fraction", try forged(claims: #"{"iss":"\#(Self.issuerId)","exp":\#(exp).5,"aud":"appstoreconnect-v1","bid":"x"}"#),
             .malformed),
            ("two parts", "abc.def", .malformed),
            ("not base64url", "a*b.c.d", .malformed),
        ]
        for (what, token, expected) in cases {
            #expect(reason(token) == expected, "\(what): \(verify(token))")
        }
        // A valid signature over other bytes: one flipped character of the claims.
        let good = try forged(claims: claims(exp: exp))
        var parts = good.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(claims(exp: exp, bid: "com.example.other").utf8))
        #expect(reason(parts.joined(separator: ".")) == .badSignature)
    }

    // MARK: Apple's library

    private func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try PythonScript.run("apple_token.py", arguments)
    }

    private func writeTemporary(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-token-\(UUID().uuidString).pem")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func appleLibrarysTokenVerifies() throws {
        let pem = try writeTemporary(try key.pem())
        defer { try? FileManager.default.removeItem(at: pem) }
        let signed = try python(["sign", pem.path, Self.keyId, Self.issuerId, Self.bundleId])
        try #require(signed.status == 0, "Apple's library could not sign (pip install app-store-server-library): \(signed.output)")
        let verified = try verify(signed.output).get()
        #expect(verified.bundleId == Self.bundleId && verified.issuerId == Self.issuerId && verified.issuedAt == nil)
    }

    @Test func pyJWTAcceptsTallysToken() throws {
        let publicPEM = try #require(key.publicKey).spki
        let pem = try writeTemporary("-----BEGIN PUBLIC KEY-----\n" + Data(publicPEM).base64EncodedString(options: .lineLength64Characters)
            + "\n-----END PUBLIC KEY-----\n")
        defer { try? FileManager.default.removeItem(at: pem) }
        let token = try ServerAPIToken.fresh(keyId: Self.keyId, issuerId: Self.issuerId, bundleId: Self.bundleId,
                                             now: now).signed(with: key)
        let checked = try python(["check", pem.path, token])
        try #require(checked.status == 0, "PyJWT refused Tally's token: \(checked.output)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(checked.output.utf8)) as? [String: Any])
        let header = object["header"] as? [String: Any], claims = object["claims"] as? [String: Any]
        #expect(header?["kid"] as? String == Self.keyId && header?["alg"] as? String == "ES256")
        #expect(claims?["bid"] as? String == Self.bundleId && claims?["iss"] as? String == Self.issuerId)
        #expect((claims?["exp"] as? Int).map { Int64($0) } == nowSeconds + 300)
    }
}
