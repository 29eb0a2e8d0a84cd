import Foundation
import TallyCore
import Testing

extension ServerProcessTests {
    /// One non-consumable posted alternately for two customers under `ownership: transfer`: a ping-pong rewrites
    /// one transfer row instead of adding one per post, and past `transfersPerChainPerHour` the post is 429
    /// `transfer_limited` and nothing moves — on both stores.
    @Suite struct TransferLimit {
        /// A fixture on `store` with `transfersPerChainPerHour` set (see ``PostgresCluster/shared(for:)``).
        static func fixture(_ store: String, limit: Int, test: String = #function) throws -> ServerFixture {
            var options = ServerOptions()
            options.transfersPerChainPerHour = limit
            guard store == "postgres" else { return try ServerFixture(options) }
            let cluster = try PostgresCluster.shared(for: test)
            options.postgresURLEnv = ServerPair.urlVariable
            return try ServerFixture(options, environment: [ServerPair.urlVariable: try cluster.createDatabase()])
        }

        /// `market.premium` bought and posted for `owner`: its transaction and JWS.
        static func premium(ownedBy owner: String, _ fixture: ServerFixture) async throws -> (StoreTransaction, String) {
            var market = try fixture.market()
            let (transaction, jws) = try market.buySigned("market.premium", account: "family")
            #expect(try await fixture.client.postTransaction(jws, for: owner).status == 200)
            return (transaction, jws)
        }

        static func outcome(_ reply: HTTPReply) -> String? {
            (try? reply.json()["transaction"] as? [String: Any])?["outcome"] as? String
        }

        @Test(arguments: ServerFixture.testedStores)
        func aHundredAlternatingPostsWriteOneTransferRow(_ store: String) async throws {
            let fixture = try Self.fixture(store, limit: 1_000)
            let client = fixture.client
            // Long ids, as the attack used: each row of them would be kilobytes.
            let alice = "alice-" + String(repeating: "a", count: 4_000), bob = "bob-" + String(repeating: "b", count: 4_000)
            let (transaction, jws) = try await Self.premium(ownedBy: alice, fixture)
            var transferred = 0
            for post in 0..<100 {
                let reply = try await client.postTransaction(jws, for: post.isMultiple(of: 2) ? bob : alice)
                #expect(reply.status == 200, "post \(post): \(reply)")
                if Self.outcome(reply) == "transferred" { transferred += 1 }
            }
            #expect(transferred == 100, "every alternating post moved the chain")
            #expect(JSONFields.nonConsumables(try await client.customer(alice)) == ["market.premium"])
            #expect(JSONFields.nonConsumables(try await client.customer(bob)).isEmpty)
            for customer in [alice, bob] {
                let transfers = JSONFields.items(try await client.history(customer), kind: "transfer")
                #expect(transfers.count == 1, "one row for the pair, not 100: \(transfers.count)")
                #expect(transfers.first?["originalTransactionId"] as? String == transaction.originalTransactionId)
                #expect(transfers.first?["fromAppUserId"] as? String == bob, "the row says the last move")
                #expect(transfers.first?["toAppUserId"] as? String == alice)
            }
        }

        @Test(arguments: ServerFixture.testedStores)
        func pastTheLimitAPostIs429TransferLimitedAndNothingMoves(_ store: String) async throws {
            let fixture = try Self.fixture(store, limit: 5)
            let client = fixture.client
            let (_, jws) = try await Self.premium(ownedBy: "alice", fixture)
            var transferred = 0, limited = 0, unchanged = 0
            for post in 0..<100 {
                let reply = try await client.postTransaction(jws, for: post.isMultiple(of: 2) ? "bob" : "alice")
                switch reply.status {
                case 200 where Self.outcome(reply) == "transferred": transferred += 1
                case 200 where Self.outcome(reply) == "unchanged": unchanged += 1
                case 429:
                    limited += 1
                    #expect(reply.errorCode == "transfer_limited", "\(reply)")
                    let wait = Int(reply.header("Retry-After") ?? "")
                    #expect(wait.map { (1...3_600).contains($0) } == true, "Retry-After \(String(describing: wait))")
                default: Issue.record("post \(post): \(reply)")
                }
            }
            // Five moves (alice → bob … → bob), then bob's own posts change nothing and alice's are refused.
            #expect(transferred == 5)
            #expect(limited == 48, "\(limited) refused")
            #expect(unchanged == 47, "\(unchanged) unchanged")
            #expect(JSONFields.nonConsumables(try await client.customer("bob")) == ["market.premium"])
            #expect(JSONFields.nonConsumables(try await client.customer("alice")).isEmpty)
            // A third customer is refused too, and gets nothing.
            let carol = try await client.postTransaction(jws, for: "carol")
            #expect(carol.status == 429 && carol.errorCode == "transfer_limited", "\(carol)")
            #expect(JSONFields.nonConsumables(try await client.customer("carol")).isEmpty)
            #expect(JSONFields.items(try await client.history("alice"), kind: "transfer").count == 1)
            #expect(JSONFields.items(try await client.history("carol"), kind: "transfer").isEmpty)
        }
    }
}
