import Foundation
import Testing
import TallyCore

extension ServerProcessTests {
    /// A refund's updated transaction takes back what the purchase gave.
    @Suite struct Refunds {
        @Test func aRefundRemovesTheEntitlementAndClawsBackCoins() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let client = fixture.client
            let (premium, premiumJWS) = try market.buySigned("market.premium", account: "bea")
            let (coins, coinsJWS) = try market.buySigned("market.coins.100", account: "bea")
            for jws in [premiumJWS, coinsJWS] {
                let reply = try await client.postTransaction(jws, for: "bea")
                #expect(reply.status == 200, "\(reply)")
            }
            let spent = try await client.spend(30, id: "bea-spend-1", for: "bea")
            #expect(spent.status == 200, "\(spent)")
            let before = try await client.customer("bea")
            #expect(JSONFields.features(before).contains("premium"))
            #expect(JSONFields.balance(before) == 70)

            for id in [premium.transactionId, coins.transactionId] {
                let refunded = try market.refund(id)
                #expect(refunded.revocationDate != nil)
                let reply = try await client.postTransaction(try market.signed(refunded), for: "bea")
                #expect(reply.status == 200, "\(reply)")
                #expect((try reply.json()["transaction"] as? [String: Any])?["outcome"] as? String == "updated")
            }

            let after = try await client.customer("bea")
            #expect(!JSONFields.features(after).contains("premium"))
            #expect(!JSONFields.features(after).contains("no-ads"))
            #expect(JSONFields.nonConsumables(after).isEmpty)
            #expect(JSONFields.balance(after) == 0, "the refunded 100 coins are clawed back")
            #expect(JSONFields.debt(after) == 30, "the 30 coins already spent are owed")

            let history = try await client.history("bea")
            let transactions = JSONFields.items(history, kind: "transaction")
            #expect(transactions.count == 2, "a refund updates the stored transaction, it adds none")
            #expect(transactions.allSatisfy { $0["revocationDate"] as? String != nil })
            let clawbacks = JSONFields.items(history, kind: "ledger").filter { $0["entry"] as? String == "clawback" }
            #expect(clawbacks.count == 1)
            #expect(clawbacks.first?["transactionId"] as? String == coins.transactionId)
        }
    }
}
