import Foundation
import Testing

extension ServerProcessTests {
    /// `GET /v1/customers/{id}` is cached, and every write invalidates the cache before it is acknowledged.
    @Suite struct Cache {
        @Test func aWriteIsVisibleToTheNextReadWhileOthersKeepReading() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            let signed = try (0..<40).map { _ in try market.buySigned("market.coins.10", account: "kim").1 }
            let stop = Locked(false)

            try await withThrowingTaskGroup(of: Void.self) { group in
                // Readers keep filling the cache with whatever state they see.
                for _ in 0..<6 {
                    group.addTask {
                        while !stop.current { _ = try await client.customerReply("kim") }
                    }
                }
                defer { stop.withLock { $0 = true } }
                var expected: Decimal = 0
                for (index, jws) in signed.enumerated() {
                    let posted = try await client.postTransaction(jws, for: "kim")
                    try #require(posted.status == 200, "\(posted)")
                    expected += 10
                    #expect(JSONFields.balance(try posted.customer()) == expected)
                    let read = try await client.customer("kim")
                    #expect(JSONFields.balance(read) == expected,
                            "after purchase \(index + 1) was acknowledged the state read back is stale")
                    if index % 2 == 1 {
                        let spent = try await client.spend(5, id: "kim-\(index)", for: "kim")
                        try #require(spent.status == 200, "\(spent)")
                        expected -= 5
                        let afterSpend = try await client.customer("kim")
                        #expect(JSONFields.balance(afterSpend) == expected,
                                "after spend \(index) was acknowledged the state read back is stale")
                    }
                }
                stop.withLock { $0 = true }
                try await group.waitForAll()
            }
        }

        /// Ids the store does not know are answered and never cached: a client inventing long ids cannot grow the
        /// server's memory (before, each 16 KiB id cached about 40 KB).
        @Test func customersTheStoreDoesNotKnowAreNotCached() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            func usage() async throws -> (entries: Int, bytes: Int) {
                let text = String(decoding: try await client.send("GET", "/metrics", key: fixture.keys.secretKey).body,
                                  as: UTF8.self)
                func gauge(_ name: String) -> Int {
                    text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
                        .flatMap { Int($0.split(separator: " ")[1]) } ?? -1
                }
                return (gauge("tally_state_cache_entries"), gauge("tally_state_cache_bytes"))
            }
            for index in 0..<50 {
                let id = String(repeating: "q", count: 16 * 1024 - 8) + String(format: "%08d", index)
                #expect(try await client.customerReply(id).status == 200)
            }
            let idle = try await usage()
            #expect(idle.entries == 0 && idle.bytes == 0, "unknown ids were cached: \(idle)")
            var market = try fixture.market()
            let jws = try market.buySigned("market.coins.10", account: "kim").1
            #expect(try await client.postTransaction(jws, for: "kim").status == 200)
            _ = try await client.customer("kim")
            let known = try await usage()
            #expect(known.entries == 1 && known.bytes > 0, "a known customer is cached: \(known)")
        }

        /// A customer's state, history and write answers must not be kept by a proxy or the app's URL cache; the
        /// dashboard's own files may be (they carry no customer).
        @Test func customerAnswersAreNotStoredByCaches() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            let jws = try market.buySigned("market.coins.10", account: "kim").1
            let replies = [
                ("POST transactions", try await client.postTransaction(jws, for: "kim")),
                ("GET customer", try await client.customerReply("kim")),
                ("GET history", try await client.historyPage("kim")),
                ("POST spend", try await client.spend(5, id: "kim-1", for: "kim")),
                ("GET unknown customer", try await client.customerReply("nobody-\(UUID().uuidString)")),
                ("GET customer, no key", try await client.send("GET", APIClient.customerPath("kim"))),
            ]
            for (name, reply) in replies {
                #expect(reply.headers["cache-control"] == "no-store", "\(name) answered \(reply.status) with \(reply.headers)")
            }
            let health = try await client.send("GET", "/healthz")
            #expect(health.headers["cache-control"] == nil)
        }
    }
}
