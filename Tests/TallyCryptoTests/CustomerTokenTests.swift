import Foundation
import Testing
import TallyCrypto

/// Customer tokens: what Tally signs, PyJWT accepts; what PyJWT signs, Tally accepts; every malformed, expired,
/// over-long, misaddressed, re-keyed or wrongly signed token is refused.
@Suite struct CustomerTokenTests {
    let secret = (0..<32).map { UInt8($0 * 7 % 256) }
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let audience = "tally"

    var hs256: CustomerTokenKey { .hs256(secret: secret) }

    private func token(_ sub: String = "alice", lifetime: TimeInterval = 600, issued: Date? = nil,
                       key: CustomerTokenKey? = nil, audience: String? = nil) throws -> String {
        try CustomerToken(appUserId: sub, audience: audience ?? self.audience, issuedAt: issued ?? now,
                          expiresAt: (issued ?? now).addingTimeInterval(lifetime)).signed(with: key ?? hs256)
    }

    private func reason(_ token: String, keys: [CustomerTokenKey]? = nil, at date: Date? = nil)
        -> CustomerTokenFailure.Reason? {
        switch CustomerToken.verify(token, audience: audience, at: date ?? now, keys: keys ?? [hs256],
                                    maximumLifetime: 86_400) {
        case .success: nil
        case .failure(let failure): failure.reason
        }
    }

    /// `header` and `claims` as raw JSON, HMAC-signed with `secret`.
    private func forged(header: String, claims: String, secret: [UInt8]? = nil) -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        return input + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: Array(input.utf8), key: secret ?? self.secret))
    }

    @Test func hs256AndES256RoundTrip() throws {
        let verified = try CustomerToken.verify(try token("alice"), audience: audience, at: now, keys: [hs256],
                                                maximumLifetime: 86_400).get()
        #expect(verified.appUserId == "alice" && verified.expiresAt == now.addingTimeInterval(600))
        let pair = try PrivateKey.newP256()
        let es256 = CustomerTokenKey.es256(id: "k1", publicKey: try #require(pair.publicKey), privateKey: pair)
        let signed = try token("bob", key: es256)
        let checking = CustomerTokenKey.es256(id: "k1", publicKey: try #require(pair.publicKey))
        #expect(reason(signed, keys: [hs256, checking]) == nil)
        #expect(throws: CryptoError.self) { try self.token(key: checking) }
    }

    @Test func timesAreChecked() throws {
        #expect(reason(try token(lifetime: 600), at: now.addingTimeInterval(601 + 60)) == .expired)
        #expect(reason(try token(lifetime: 600), at: now.addingTimeInterval(630)) == nil, "within the 60 s leeway")
        #expect(reason(try token(issued: now.addingTimeInterval(3_600))) == .notYetValid)
        #expect(reason(try token(lifetime: 86_400 * 2)) == .lifetimeTooLong)
        let noIat = forged(header: #"{"alg":"HS256","typ":"JWT"}"#,
                           claims: #"{"sub":"a","aud":"tally","exp":\#(Int64(now.timeIntervalSince1970) + 90_000)}"#)
        #expect(reason(noIat) == .lifetimeTooLong, "without iat the lifetime counts from now")
        let notBefore = forged(header: #"{"alg":"HS256"}"#, claims: #"{"sub":"a","aud":"tally","exp":\#(Int64(now.timeIntervalSince1970) + 60),"nbf":\#(Int64(now.timeIntervalSince1970) + 600)}"#)
        #expect(reason(notBefore) == .notYetValid)
    }

    @Test func claimsAndHeadersAreChecked() throws {
        let exp = Int64(now.timeIntervalSince1970) + 60
        #expect(reason(try token(audience: "another-app")) == .wrongAudience)
        #expect(reason(forged(header: #"{"alg":"HS256"}"#, claims: #"{"sub":"a","aud":["x","tally"],"exp":\#(exp)}"#)) == nil,
                "aud may be a list naming the audience")
        #expect(reason(forged(header: #"{"alg":"HS256"}"#, claims: #"{"aud":"tally","exp":\#(exp)}"#)) == .missingClaim)
        #expect(reason(forged(header: #"{"alg":"HS256"}"#, claims: #"{"sub":"a","aud":"tally"}"#)) == .missingClaim)
        #expect(reason(forged(header: #"{"alg":"HS256"}"#, claims: #"{"sub":1,"aud":"tally","exp":\#(exp)}"#)) == .malformed)
        #expect(reason(forged(header: #"{"alg":"HS256","crit":["b64"]}"#, claims: #"{"sub":"a","aud":"tally","exp":\#(exp)}"#)) == .malformed)
        #expect(reason(forged(header: #"{"alg":"HS256","typ":"jose+json"}"#, claims: #"{"sub":"a","aud":"tally","exp":\#(exp)}"#)) == .malformed)
        #expect(reason(forged(header: #"{"alg":"HS256","kid":"nope"}"#, claims: #"{"sub":"a","aud":"tally","exp":\#(exp)}"#)) == .unknownKey)
        #expect(reason(forged(header: #"{"alg":"HS256"}"#, claims: #"{"sub":"a","aud":"tally","exp":\#(exp)}"#,
                              secret: Array(repeating: 1, count: 32))) == .badSignature)
        for garbage in ["", "a.b", "a.b.c.d", "!!.??.**", String(repeating: "a", count: 9_000) + ".b.c"] {
            #expect(reason(garbage) == .malformed, "\(garbage.prefix(20))")
        }
    }

    @Test func theKeyDecidesTheAlgorithm() throws {
        let exp = Int64(now.timeIntervalSince1970) + 60
        let claims = #"{"sub":"alice","aud":"tally","exp":\#(exp)}"#
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array(claims.utf8)) + "."
        #expect(reason(none) == .unsupportedAlgorithm)
        // HS256 keyed with the bytes of an ES256 public key: refused when only the ES256 key is configured.
        let pair = try PrivateKey.newP256()
        let publicKey = try #require(pair.publicKey)
        let confused = forged(header: #"{"alg":"HS256"}"#, claims: claims, secret: publicKey.spki)
        #expect(reason(confused, keys: [.es256(publicKey: publicKey)]) == .unsupportedAlgorithm)
        // A payload changed after signing.
        let good = try token("alice")
        let parts = good.split(separator: ".")
        let changed = parts[0] + "." + Base64URL.encode(Array(#"{"sub":"mallory","aud":"tally","exp":\#(exp)}"#.utf8)) + "." + parts[2]
        #expect(reason(String(changed)) == .badSignature)
    }

    private func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try PythonScript.run("customer_token.py", arguments)
    }

    @Test func pyJWTAndTallyAgreeBothWays() throws {
        let secretText = Data(secret).base64EncodedString()
        let fromPython = try python(["sign-hs256", secretText, "alice@example.com", audience, "600"])
        try #require(fromPython.status == 0, "PyJWT could not sign: \(fromPython.output)")
        let verified = CustomerToken.verify(fromPython.output, audience: audience, at: Date(), keys: [hs256],
                                            maximumLifetime: 86_400)
        #expect((try? verified.get())?.appUserId == "alice@example.com", "\(verified)")
        let ours = try CustomerToken(appUserId: "bob", audience: audience, issuedAt: Date(),
                                     expiresAt: Date().addingTimeInterval(300)).signed(with: hs256)
        let checked = try python(["check-hs256", secretText, audience, ours])
        #expect(checked.status == 0 && checked.output.contains(#""sub": "bob""#), "\(checked.output)")

        let pair = try PrivateKey.newP256()
        let pem = FileManager.default.temporaryDirectory.appendingPathComponent("tally-ct-\(UUID().uuidString).pem")
        let publicPEM = FileManager.default.temporaryDirectory.appendingPathComponent("tally-ct-\(UUID().uuidString).pub.pem")
        defer { try? FileManager.default.removeItem(at: pem); try? FileManager.default.removeItem(at: publicPEM) }
        try pair.pem().write(to: pem, atomically: true, encoding: .utf8)
        let publicKey = try #require(pair.publicKey)
        try ("-----BEGIN PUBLIC KEY-----\n" + Data(publicKey.spki).base64EncodedString(options: .lineLength64Characters)
             + "\n-----END PUBLIC KEY-----\n").write(to: publicPEM, atomically: true, encoding: .utf8)
        let es = try python(["sign-es256", pem.path, "carol", audience, "600"])
        try #require(es.status == 0, "\(es.output)")
        #expect(CustomerToken.verify(es.output, audience: audience, at: Date(), keys: [.es256(publicKey: publicKey)],
                                     maximumLifetime: 86_400).map(\.appUserId) == .success("carol"))
        let ourES = try CustomerToken(appUserId: "dave", audience: audience, issuedAt: Date(),
                                      expiresAt: Date().addingTimeInterval(300))
            .signed(with: .es256(publicKey: publicKey, privateKey: pair))
        let esChecked = try python(["check-es256", publicPEM.path, audience, ourES])
        #expect(esChecked.status == 0 && esChecked.output.contains(#""sub": "dave""#), "\(esChecked.output)")
    }
}
