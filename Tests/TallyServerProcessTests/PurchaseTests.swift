import Foundation
import Testing
import TallyCore

extension ServerProcessTests {
    /// Signed transactions from the sandbox, posted to the server, become what the customer owns.
    @Suite struct Purchases {
        @Test func aPurchaseGrantsWhatItSellsAndTheSameJWSAgainChangesNothing() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let client = fixture.client
            let (premium, premiumJWS) = try market.buySigned("market.premium", account: "ann")
            let (coins, coinsJWS) = try market.buySigned("market.coins.100", account: "ann")
            let (pro, proJWS) = try market.buySigned("market.pro.monthly", account: "ann")

            for (transaction, jws) in [(premium, premiumJWS), (coins, coinsJWS), (pro, proJWS)] {
                let reply = try await client.postTransaction(jws, for: "ann")
                #expect(reply.status == 200, "\(reply)")
                let posted = try reply.json()["transaction"] as? [String: Any]
                #expect(posted?["transactionId"] as? String == transaction.transactionId)
                #expect(posted?["outcome"] as? String == "inserted")
            }

            let state = try await client.customer("ann")
            #expect(state["appUserId"] as? String == "ann")
            #expect(JSONFields.nonConsumables(state) == ["market.premium"])
            #expect(JSONFields.features(state) == ["premium", "no-ads", "pro", "plus"])
            #expect(JSONFields.balance(state) == 100)
            let entitlements = state["entitlements"] as? [[String: Any]] ?? []
            let premiumEntitlement = entitlements.first { $0["feature"] as? String == "premium" }
            #expect(premiumEntitlement?["expiresDate"] is NSNull, "a non-consumable never expires")
            let proEntitlement = entitlements.first { $0["feature"] as? String == "pro" }
            let proExpires = proEntitlement?["expiresDate"] as? String
            #expect(proExpires.map(Self.isAppleDate) == true, "ISO 8601 UTC with milliseconds: \(String(describing: proExpires))")
            let subscriptions = state["subscriptions"] as? [[String: Any]] ?? []
            #expect(subscriptions.count == 1)
            #expect(subscriptions.first?["productId"] as? String == "market.pro.monthly")
            #expect(subscriptions.first?["status"] as? String == "subscribed")
            #expect(subscriptions.first?["originalTransactionId"] as? String == pro.originalTransactionId)

            for jws in [coinsJWS, premiumJWS] {
                let again = try await client.postTransaction(jws, for: "ann")
                #expect(again.status == 200, "\(again)")
                #expect((try again.json()["transaction"] as? [String: Any])?["outcome"] as? String == "unchanged")
                #expect(JSONFields.equal(try again.customer(), state), "posting the same JWS again changed the state")
            }
            let after = try await client.customer("ann")
            #expect(JSONFields.equal(after, state), "the state changed after a repeated post")
            #expect(JSONFields.balance(after) == 100, "a transaction credits once")
            let history = try await client.history("ann")
            #expect(JSONFields.transactionIds(history).sorted()
                    == [premium, coins, pro].map(\.transactionId).sorted())
            let credits = JSONFields.items(history, kind: "ledger").filter { $0["entry"] as? String == "credit" }
            #expect(credits.count == 1)
            #expect(credits.first?["transactionId"] as? String == coins.transactionId)
            #expect(JSONFields.decimal(credits.first?["amount"]) == 100)
        }

        /// `2026-11-30T05:00:00.000Z`.
        static func isAppleDate(_ text: String) -> Bool {
            text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#, options: .regularExpression) != nil
        }

        @Test func aCustomerNeverSeenOwnsNothing() async throws {
            let fixture = try ServerFixture()
            let state = try await fixture.client.customer("nobody")
            #expect(state["appUserId"] as? String == "nobody")
            #expect(JSONFields.features(state).isEmpty)
            #expect(JSONFields.nonConsumables(state).isEmpty)
            #expect((state["subscriptions"] as? [Any])?.isEmpty == true)
            #expect(JSONFields.balance(state) == 0)
        }
    }
}
