import Foundation
import Testing

extension ServerProcessTests {
    /// What the server acknowledged survives a crash (SIGKILL in the middle of a burst).
    @Suite struct Durability {
        @Test func everyAcknowledgedPostSurvivesASIGKILLMidBurst() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let customers = (0..<8).map { "burst-\($0)" }
            var lanes: [RequestBurst.Lane] = []
            for lane in 0..<16 {
                let customer = customers[lane % customers.count]
                var posts: [(String, String)] = []
                for _ in 0..<60 {
                    let (transaction, jws) = try market.buySigned("market.coins.10", account: customer)
                    posts.append((transaction.transactionId, jws))
                }
                lanes.append(try .transactions(customer, posts))
            }
            let total = lanes.reduce(0) { $0 + $1.requests.count }

            let burst = RequestBurst(lanes: lanes, port: fixture.server.port, key: fixture.keys.publicKey)
            // Kill once a good part has been acknowledged, while the rest is still in flight.
            try await burst.waitForAcknowledged(150)
            try fixture.server.killNow()
            await burst.finished()
            // 503 means "nothing was acknowledged, retry": allowed, but such a post is not counted as stored.
            #expect(burst.unexpected.current.isEmpty, "\(burst.unexpected.current.prefix(3))")
            let acknowledged = burst.acknowledged.current
            let acknowledgedCount = acknowledged.values.reduce(0) { $0 + $1.count }
            #expect(acknowledgedCount >= 150)
            #expect(acknowledgedCount < total, "the kill came after the burst ended: nothing was in flight")

            try fixture.restart()
            let client = fixture.client
            for customer in customers {
                let history = try await client.history(customer)
                let stored = JSONFields.transactionIds(history)
                #expect(Set(stored).count == stored.count, "\(customer)'s history lists a transaction twice")
                let missing = Set(acknowledged[customer] ?? []).subtracting(stored)
                #expect(missing.isEmpty, "\(customer): acknowledged but lost after SIGKILL: \(missing.sorted().prefix(5))")
                let state = try await client.customer(customer)
                #expect(JSONFields.balance(state) == Decimal(10 * stored.count),
                        "\(customer)'s balance does not match the \(stored.count) stored purchases")
            }
        }

        @Test func everyAcknowledgedSpendSurvivesASIGKILLMidBurst() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let customers = (0..<4).map { "spender-\($0)" }
            for customer in customers {
                for _ in 0..<10 {
                    let (_, jws) = try market.buySigned("market.coins.100", account: customer)
                    #expect(try await fixture.client.postTransaction(jws, for: customer).status == 200)
                }
            }
            let lanes = try (0..<12).map { lane in
                try RequestBurst.Lane.spends(customers[lane % customers.count],
                                             ids: (0..<80).map { "lane\(lane)-spend\($0)" })
            }
            let burst = RequestBurst(lanes: lanes, port: fixture.server.port, key: fixture.keys.secretKey)
            try await burst.waitForAcknowledged(120)
            try fixture.server.killNow()
            await burst.finished()
            #expect(burst.unexpected.current.isEmpty, "\(burst.unexpected.current.prefix(3))")
            #expect(burst.acknowledgedCount < 12 * 80, "the kill came after the burst ended: nothing was in flight")

            try fixture.restart()
            let client = fixture.client
            for customer in customers {
                let ledger = JSONFields.items(try await client.history(customer), kind: "ledger")
                let spent = Set(ledger.filter { $0["entry"] as? String == "spend" }.compactMap { $0["id"] as? String }
                    .map { $0.hasPrefix("spend:") ? String($0.dropFirst(6)) : $0 })
                let missing = Set(burst.acknowledged.current[customer] ?? []).subtracting(spent)
                #expect(missing.isEmpty, "\(customer): spends acknowledged but lost after SIGKILL: \(missing.sorted().prefix(5))")
                let state = try await client.customer(customer)
                #expect(JSONFields.balance(state) == Decimal(1_000 - spent.count), "\(customer): balance vs \(spent.count) spends")
                if let id = burst.acknowledged.current[customer]?.first {
                    let again = try await client.spend(1, id: id, for: customer)
                    #expect((try again.json()["spend"] as? [String: Any])?["outcome"] as? String == "duplicate",
                            "an acknowledged spend id is recorded once, across a crash: \(again)")
                }
            }
        }
    }
}
