import Foundation
import Testing

extension ServerProcessTests {
    /// Rate limits: a public key (shipped in every install) per customer id and client address, per client
    /// address, and a ceiling for the key; a secret key per key; requests with no key or an unknown key per client
    /// address.
    @Suite struct RateLimits {
        /// `rateLimit` as given, with 1 request per second everywhere so no bucket refills during a test.
        func fixture(_ rate: [String: Any]) throws -> ServerFixture {
            let fixture = try ServerFixture()
            try fixture.reconfigure { $0["rateLimit"] = rate }
            return fixture
        }

        /// The statuses of `count` `GET /v1/customers/{id}` with `key`.
        func statuses(_ client: APIClient, _ appUserId: String, key: String, count: Int) async throws -> [Int] {
            var statuses: [Int] = []
            for _ in 0..<count {
                statuses.append(try await client.send("GET", APIClient.customerPath(appUserId), key: key).status)
            }
            return statuses
        }

        @Test func aPublicKeyHasABucketPerCustomerIdComparedAsBytes() async throws {
            let fixture = try fixture(["requestsPerSecond": 0.01, "burst": 3])
            let client = fixture.client, key = fixture.keys.publicKey
            #expect(try await statuses(client, "ann", key: key, count: 4) == [200, 200, 200, 429])
            // Another install (another customer) is not locked out by ann's requests.
            #expect(try await statuses(client, "bob", key: key, count: 3) == [200, 200, 200])
            // "café" NFC and NFD are canonically equivalent Swift strings but different customer ids.
            let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
            #expect(try await statuses(client, nfc, key: key, count: 4) == [200, 200, 200, 429])
            #expect(try await statuses(client, nfd, key: key, count: 1) == [200], "NFD has its own bucket")
            let limited = try await client.customerReply("ann")
            #expect(limited.errorCode == "rate_limited" && limited.header("Retry-After") != nil, "\(limited)")
        }

        @Test func aPublicKeyHasACeilingOverAllCustomers() async throws {
            let fixture = try fixture(["requestsPerSecond": 0.01, "burst": 3,
                                       "publicKeyRequestsPerSecond": 0.01, "publicKeyBurst": 5])
            let client = fixture.client, key = fixture.keys.publicKey
            var statuses: [Int] = []
            for index in 0..<7 { statuses += try await self.statuses(client, "user-\(index)", key: key, count: 1) }
            #expect(statuses == [200, 200, 200, 200, 200, 429, 429], "\(statuses)")
            // The ceiling is the public key's alone: the secret key still has its own bucket.
            #expect(try await self.statuses(client, "user-0", key: fixture.keys.secretKey, count: 1) == [200])
        }

        /// With the server's clock on a sandbox that stands still (`clock.sandboxURL`, as `make demo` runs it), an
        /// empty bucket keeps refilling in real time: limiters read a monotonic real clock, never the rules' clock
        /// (before, `make demo`'s customer got 429 for good after about 40 requests).
        @Test func bucketsRefillInRealTimeWhileTheSandboxClockStandsStill() async throws {
            let fixture = try ServerFixture()
            let appStore = try Reconcile.AppStore(in: fixture.directory, authority: fixture.authority, start: Date())
            try appStore.start()
            try fixture.reconfigure {
                $0["clock"] = ["sandboxURL": appStore.baseURL]
                $0["rateLimit"] = ["requestsPerSecond": 4, "burst": 2]
            }
            let client = fixture.client, key = fixture.keys.publicKey
            #expect(try await statuses(client, "demo-user", key: key, count: 3) == [200, 200, 429])
            // 4 tokens a second of real time: about 12 more in 3 s. Refilled on the sandbox's clock (which the server
            // re-reads every half second and which has not moved), the bucket would give back at most 2 in its life.
            var allowed = 0
            let end = Date().addingTimeInterval(3)
            while Date() < end {
                if try await client.send("GET", APIClient.customerPath("demo-user"), key: key).status == 200 { allowed += 1 }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(allowed >= 6, "\(allowed) requests allowed in 3 s of real time at 4 a second")
        }

        /// The statuses of `count` `GET /v1/customers/{id}` with `key` from the loopback address `source`.
        func statuses(port: Int, from source: String, _ appUserIds: [String], key: String) throws -> [Int] {
            try appUserIds.map { try requestStatus(port: port, from: source, "GET", APIClient.customerPath($0), key: key) }
        }

        /// Issue 27 item 6: one client over random customer ids used to empty the public key's ceiling, and every
        /// other install got 429. Each address now has its own share below the ceiling.
        @Test func oneAddressCannotEmptyThePublicKeyCeilingForAnother() async throws {
            let fixture = try fixture(["requestsPerSecond": 0.01, "burst": 3,
                                       "publicKeyPerAddressRequestsPerSecond": 0.01, "publicKeyPerAddressBurst": 5,
                                       "publicKeyRequestsPerSecond": 0.01, "publicKeyBurst": 8])
            let port = fixture.server.port, key = fixture.keys.publicKey
            let flood = try statuses(port: port, from: "127.0.0.1", (0..<7).map { "random-\($0)" }, key: key)
            #expect(flood == [200, 200, 200, 200, 200, 429, 429], "127.0.0.1 over 7 ids: \(flood)")
            // Another customer on another address is served from what the ceiling has left (3 of 8).
            #expect(try statuses(port: port, from: "127.0.0.2", ["bob", "bob", "bob"], key: key) == [200, 200, 200])
            // The ceiling still binds over all addresses.
            #expect(try statuses(port: port, from: "127.0.0.3", ["carol"], key: key) == [429])
            // The refusal names what ran out and when to come back.
            let limited = try await fixture.client.customerReply("dave")
            #expect(limited.errorCode == "rate_limited" && limited.header("Retry-After") != nil, "\(limited)")
        }

        /// Issue 27 item 6: a stranger who knows a customer's id and calls it from elsewhere used to empty that
        /// customer's bucket, and the customer's own purchase post got 429. The customer bucket is per address.
        @Test func aStrangerElsewhereCannotSpendACustomersBucket() throws {
            let fixture = try fixture(["requestsPerSecond": 0.01, "burst": 3])
            let port = fixture.server.port, key = fixture.keys.publicKey
            let stranger = try statuses(port: port, from: "127.0.0.9", Array(repeating: "victim", count: 5), key: key)
            #expect(stranger == [200, 200, 200, 429, 429], "the stranger on 127.0.0.9: \(stranger)")
            // The victim on its own address still reads its state and posts its purchase (an empty body: 400 from
            // the route, never 429 from the limiter).
            #expect(try statuses(port: port, from: "127.0.0.1", ["victim"], key: key) == [200])
            let post = try requestStatus(port: port, from: "127.0.0.1", "POST",
                                         APIClient.customerPath("victim") + "/transactions", key: key)
            #expect(post == 400, "the victim's post got \(post)")
        }

        @Test func aSecretKeyHasOneBucketWhateverTheCustomer() async throws {
            let fixture = try fixture(["requestsPerSecond": 0.01, "burst": 3])
            let client = fixture.client, key = fixture.keys.secretKey
            var statuses: [Int] = []
            for index in 0..<4 { statuses += try await self.statuses(client, "user-\(index)", key: key, count: 1) }
            #expect(statuses == [200, 200, 200, 429], "\(statuses)")
        }

        @Test func unknownKeysAreLimitedPerClientAddress() async throws {
            let fixture = try fixture(["requestsPerSecond": 0.01, "burst": 3,
                                       "unknownKeyRequestsPerSecond": 0.01, "unknownKeyBurst": 3])
            let port = fixture.server.port
            let wrong = "tk_public_" + ServerKeys.randomHex()
            let path = APIClient.customerPath("ann")
            var first: [Int] = []
            for index in 0..<5 {
                first.append(try requestStatus(port: port, from: "127.0.0.1", "GET", path, key: index % 2 == 0 ? wrong : nil))
            }
            #expect(first == [401, 401, 401, 429, 429], "no key or an unknown key from 127.0.0.1: \(first)")
            // Another address is another client.
            #expect(try requestStatus(port: port, from: "127.0.0.2", "GET", path, key: wrong) == 401)
            // A configured key from the limited address is not affected.
            #expect(try requestStatus(port: port, from: "127.0.0.1", "GET", path, key: fixture.keys.publicKey) == 200)
        }
    }
}
