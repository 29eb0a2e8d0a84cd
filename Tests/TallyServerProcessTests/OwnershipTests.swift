import Foundation
import Testing

extension ServerProcessTests {
    /// A chain posted by a second customer: moved (`transfer`, the default) or kept (`keep`).
    @Suite struct Ownership {
        @Test func byDefaultAnotherCustomerTakesTheChainAndBothHistoriesShowTheMove() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            let (transaction, jws) = try market.buySigned("market.premium", account: "family")
            #expect(try await client.postTransaction(jws, for: "alice").status == 200)
            #expect(JSONFields.nonConsumables(try await client.customer("alice")) == ["market.premium"])

            let moved = try await client.postTransaction(jws, for: "bob")
            #expect(moved.status == 200, "\(moved)")
            #expect((try moved.json()["transaction"] as? [String: Any])?["outcome"] as? String == "transferred")
            #expect(JSONFields.nonConsumables(try moved.customer()) == ["market.premium"])
            #expect(JSONFields.nonConsumables(try await client.customer("bob")) == ["market.premium"])
            #expect(JSONFields.nonConsumables(try await client.customer("alice")).isEmpty)

            for customer in ["alice", "bob"] {
                let transfers = JSONFields.items(try await client.history(customer), kind: "transfer")
                #expect(transfers.count == 1, "\(customer)'s history: \(transfers)")
                #expect(transfers.first?["originalTransactionId"] as? String == transaction.originalTransactionId)
                #expect(transfers.first?["fromAppUserId"] as? String == "alice")
                #expect(transfers.first?["toAppUserId"] as? String == "bob")
            }
            #expect(JSONFields.transactionIds(try await client.history("bob")) == [transaction.transactionId])
        }

        @Test func underKeepTheFirstOwnerKeepsTheChain() async throws {
            var options = ServerOptions()
            options.ownership = "keep"
            let fixture = try ServerFixture(options)
            let client = fixture.client
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "family")
            #expect(try await client.postTransaction(jws, for: "alice").status == 200)

            let refused = try await client.postTransaction(jws, for: "bob")
            #expect(refused.status == 409, "\(refused)")
            #expect(refused.errorCode == "owned_by_another_customer", "\(refused)")
            #expect(JSONFields.nonConsumables(try await client.customer("alice")) == ["market.premium"])
            #expect(JSONFields.nonConsumables(try await client.customer("bob")).isEmpty)
            #expect(JSONFields.items(try await client.history("alice"), kind: "transfer").isEmpty)
            let again = try await client.postTransaction(jws, for: "alice")
            #expect((try again.json()["transaction"] as? [String: Any])?["outcome"] as? String == "unchanged")
        }
    }
}
