import Foundation
import Testing

extension ServerProcessTests {
    /// Keys: who may call what.
    @Suite struct Authorization {
        @Test func noKeyOrAnUnknownKeyIsUnauthorized() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            let cases: [(String, [String: String])] = [
                ("no key", [:]),
                ("an unknown key", ["Authorization": "Bearer tk_public_" + ServerKeys.randomHex()]),
                ("a key's hash instead of the key", ["Authorization": "Bearer " + ServerKeys.sha256Hex(fixture.keys.publicKey)]),
                ("another scheme", ["Authorization": "Basic " + Data("user:\(fixture.keys.secretKey)".utf8).base64EncodedString()]),
            ]
            for (what, headers) in cases {
                let reply = try await client.send("GET", APIClient.customerPath("ann"), headers: headers)
                #expect(reply.status == 401, "\(what): \(reply)")
                #expect(reply.errorCode == "unauthorized", "\(what): \(reply)")
                #expect(reply.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "\(what): \(reply.headers)")
                await expectHealthy(client, after: what)
            }
        }

        @Test func thePublicKeyMayNotSpendOrReadHistory() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            let spend = try await client.send("POST", APIClient.customerPath("ann") + "/currencies/coins/spend",
                                              key: fixture.keys.publicKey,
                                              body: try APIClient.json(["amount": 1, "id": "x"]))
            #expect(spend.status == 403, "\(spend)")
            #expect(spend.errorCode == "forbidden")
            await expectHealthy(client, after: "a public key on spend")
            let history = try await client.send("GET", APIClient.customerPath("ann") + "/history",
                                                key: fixture.keys.publicKey)
            #expect(history.status == 403, "\(history)")
            #expect(history.errorCode == "forbidden")
            await expectHealthy(client, after: "a public key on history")
            // The secret key may do both (the history of a customer never seen is empty).
            let allowed = try await client.send("GET", APIClient.customerPath("ann") + "/history",
                                                key: fixture.keys.secretKey)
            #expect(allowed.status == 200, "\(allowed)")
            #expect((try allowed.json()["items"] as? [Any])?.isEmpty == true)
            #expect(try allowed.json()["nextCursor"] is NSNull)
        }

        @Test func pastTheRateAKeyGets429WithRetryAfterAndOtherKeysAreUnaffected() async throws {
            var options = ServerOptions()
            options.requestsPerSecond = 1
            options.burst = 3
            let fixture = try ServerFixture(options)
            let client = fixture.client
            var statuses: [Int] = []
            var limited: HTTPReply?
            for _ in 0..<50 {
                let reply = try await client.customerReply("ann")
                statuses.append(reply.status)
                if reply.status == 429 {
                    limited = reply
                    break
                }
            }
            #expect(Array(statuses.prefix(3)) == [200, 200, 200], "the burst of 3 is allowed: \(statuses)")
            let reply = try #require(limited, "50 requests at 1/s never got 429: \(statuses)")
            #expect(reply.errorCode == "rate_limited", "\(reply)")
            let retryAfter = reply.header("Retry-After").flatMap { Int($0) }
            #expect(retryAfter.map { $0 >= 1 } == true, "Retry-After must be whole seconds: \(reply.headers)")
            let other = try await client.send("GET", APIClient.customerPath("ann") + "/history",
                                              key: fixture.keys.secretKey)
            #expect(other.status == 200, "another key has its own bucket: \(other)")
            await expectHealthy(client, after: "a rate-limited key")
        }
    }
}
