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
