import Foundation
import TallyCrypto
import Testing
@testable import TallyServer

@Suite("API keys and rate limits")
struct KeyTests {
    @Test("no key or an unknown key is 401 with WWW-Authenticate; health and metrics need none")
    func unauthorized() throws {
        let fixture = try ServerFixture()
        for key in [nil, "tk_public_wrong", "", ServerFixture.publicKey + "x"] {
            let reply = fixture.send("GET", "/v1/customers/u", key: key)
            #expect(reply.status == 401)
            #expect(reply.errorCode == "unauthorized")
            #expect(reply.header("WWW-Authenticate") == "Bearer")
        }
        var request = fixture.send("GET", "/v1/customers/u", key: nil)
        #expect(request.status == 401)
        request = fixture.send("GET", "/healthz", key: nil)
        #expect(request.status == 200)
        #expect(request.json["status"] as? String == "ok")
        #expect(fixture.send("GET", "/metrics", key: nil).status == 200)
    }

    @Test("a public key is 403 on secret routes; a secret key may use every route")
    func roles() throws {
        let fixture = try ServerFixture()
        let history = fixture.send("GET", "/v1/customers/u/history", key: ServerFixture.publicKey)
        #expect(history.status == 403)
        #expect(history.errorCode == "forbidden")
        let spend = fixture.send("POST", "/v1/customers/u/currencies/coins/spend", key: ServerFixture.publicKey,
                                 body: #"{"amount":1,"id":"s"}"#)
        #expect(spend.status == 403)
        #expect(fixture.send("GET", "/v1/customers/u", key: ServerFixture.publicKey).status == 200)
        #expect(fixture.send("GET", "/v1/customers/u", key: ServerFixture.secretKey).status == 200)
        #expect(fixture.send("GET", "/v1/customers/u/history", key: ServerFixture.secretKey).status == 200)
    }

    @Test("the key ring finds the matching entry wherever it is, and nothing for a near miss")
    func keyRingMatchesEveryPosition() {
        let names = (0..<5).map { "key-\($0)" }
        let ring = KeyRing(entries: names.map {
            APIKeyEntry(name: $0, role: .public, sha256: ECDSA.sha256(Array("secret-\($0)".utf8)))
        })
        for name in names { #expect(ring.entry(forKey: "secret-\(name)")?.name == name) }
        #expect(ring.entry(forKey: "secret-key-5") == nil)
        #expect(ring.entry(forKey: "secret-key-") == nil)
        let truncated = KeyRing(entries: [APIKeyEntry(name: "short", role: .public, sha256: [0x01])])
        #expect(truncated.entry(forKey: "anything") == nil)
    }

    @Test("Authorization must be a bearer token")
    func bearerParsing() {
        #expect(KeyRing.bearerToken("Bearer abc") == "abc")
        #expect(KeyRing.bearerToken("bearer  abc ") == "abc")
        #expect(KeyRing.bearerToken("Basic abc") == nil)
        #expect(KeyRing.bearerToken("Bearer ") == nil)
        #expect(KeyRing.bearerToken(nil) == nil)
    }

    @Test("past its burst a key gets 429 with Retry-After; other keys are not affected; the rules' clock refills nothing")
    func rateLimit() throws {
        let fixture = try ServerFixture(limits: ServerLimits(requestsPerSecond: 0.5, burst: 3))
        for _ in 0..<3 { #expect(fixture.send("GET", "/v1/customers/u", key: ServerFixture.publicKey).status == 200) }
        let limited = fixture.send("GET", "/v1/customers/u", key: ServerFixture.publicKey)
        #expect(limited.status == 429)
        #expect(limited.errorCode == "rate_limited")
        #expect(limited.header("Retry-After") == "2")
        #expect(fixture.send("GET", "/v1/customers/u", key: ServerFixture.secretKey).status == 200)
        // Buckets refill on the system's uptime, not on the fixture's clock (HardeningUnitTests checks the refill
        // on a test clock, RateLimits.bucketsRefillInRealTimeWhileTheSandboxClockStandsStill in real time).
        fixture.clock.advance(by: 10)
        #expect(fixture.send("GET", "/v1/customers/u", key: ServerFixture.publicKey).status == 429)
    }
}
