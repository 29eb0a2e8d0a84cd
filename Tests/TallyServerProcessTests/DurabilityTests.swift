import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ServerProcessTests {
    /// What the server acknowledged survives a crash and a clean stop.
    @Suite struct Durability {
        @Test func everyAcknowledgedPostSurvivesASIGKILLMidBurst() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let customers = (0..<8).map { "burst-\($0)" }
            var lanes: [PostBurst.Lane] = []
            for lane in 0..<16 {
                let customer = customers[lane % customers.count]
                var posts: [(String, String)] = []
                for _ in 0..<60 {
                    let (transaction, jws) = try market.buySigned("market.coins.10", account: customer)
                    posts.append((transaction.transactionId, jws))
                }
                lanes.append(PostBurst.Lane(appUserId: customer, posts: posts))
            }
            let total = lanes.reduce(0) { $0 + $1.posts.count }

            let burst = PostBurst(lanes: lanes, port: fixture.server.port, publicKey: fixture.keys.publicKey)
            // Kill once a good part has been acknowledged, while the rest is still in flight.
            while burst.acknowledgedCount < 150 && !burst.isFinished { try await Task.sleep(nanoseconds: 2_000_000) }
            try fixture.server.killNow()
            await burst.finished()
            #expect(burst.unexpected.current.isEmpty, "\(burst.unexpected.current.prefix(3))")
            // 503 means "nothing was acknowledged, retry": allowed, but such a post is not counted as stored.
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

        @Test func sigintStopsTheServerCleanly() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "jon")
            #expect(try await fixture.client.postTransaction(jws, for: "jon").status == 200)
            let status = try fixture.server.terminate(with: SIGINT)
            #expect(status == 0, "SIGINT must stop the server cleanly; stderr: \(fixture.server.stderr.text)")
            try fixture.restart()
            #expect(JSONFields.nonConsumables(try await fixture.client.customer("jon")) == ["market.premium"])
        }

        @Test func stateSurvivesACleanRestart() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let client = fixture.client
            for product in ["market.premium", "market.coins.100", "market.pro.yearly"] {
                let (_, jws) = try market.buySigned(product, account: "eve")
                #expect(try await client.postTransaction(jws, for: "eve").status == 200)
            }
            #expect(try await client.spend(25, id: "eve-1", for: "eve").status == 200)
            let state = try await client.customer("eve")
            let history = try await client.history("eve")
            #expect(JSONFields.balance(state) == 75)

            let status = try fixture.server.terminate()
            #expect(status == 0, "SIGTERM must stop the server cleanly; stderr: \(fixture.server.stderr.text)")
            try fixture.restart()
            let restarted = fixture.client
            #expect(JSONFields.equal(try await restarted.customer("eve"), state))
            #expect(JSONFields.equal(try await restarted.history("eve"), history))
            let duplicate = try await restarted.spend(25, id: "eve-1", for: "eve")
            #expect((try duplicate.json()["spend"] as? [String: Any])?["outcome"] as? String == "duplicate",
                    "a spend id is recorded once, across restarts: \(duplicate)")
            #expect(JSONFields.balance(try await restarted.customer("eve")) == 75)
        }
    }
}
