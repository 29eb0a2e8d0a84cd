import Foundation
import Testing
import TallyCore

extension ServerProcessTests {
    /// What a customer holding only the public key and old signed data must not be able to undo or multiply.
    @Suite struct Integrity {
        private static func outcome(_ reply: HTTPReply) throws -> String? {
            (try reply.json()["transaction"] as? [String: Any])?["outcome"] as? String
        }

        @Test func replayingThePurchaseAfterItsRefundChangesNothing() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            let (premium, premiumJWS) = try market.buySigned("market.premium", account: "eve")
            let (coins, coinsJWS) = try market.buySigned("market.coins.100", account: "eve")
            for jws in [premiumJWS, coinsJWS] { #expect(try await client.postTransaction(jws, for: "eve").status == 200) }
            #expect(try await client.spend(40, id: "eve-1", for: "eve").status == 200)
            for id in [premium.transactionId, coins.transactionId] {
                let refunded = try market.signed(try market.refund(id))
                #expect(try Self.outcome(try await client.postTransaction(refunded, for: "eve")) == "updated")
            }
            let refundedState = try await client.customer("eve")
            #expect(JSONFields.nonConsumables(refundedState).isEmpty)
            #expect(JSONFields.debt(refundedState) == 40)

            for jws in [premiumJWS, coinsJWS] {
                let replay = try await client.postTransaction(jws, for: "eve")
                #expect(replay.status == 200, "\(replay)")
                #expect(try Self.outcome(replay) == "unchanged", "an older copy must not replace the refund")
            }
            let after = try await client.customer("eve")
            #expect(JSONFields.nonConsumables(after).isEmpty, "premium came back: \(after)")
            #expect(!JSONFields.features(after).contains("premium"))
            #expect(JSONFields.balance(after) == 0)
            #expect(JSONFields.debt(after) == 40, "the debt was cleared")
            let stored = JSONFields.items(try await client.history("eve"), kind: "transaction")
            #expect(stored.count == 2 && stored.allSatisfy { $0["revocationDate"] as? String != nil })
        }

        @Test func theRefundedCopyPostedFirstStandsAgainstThePurchaseCopy() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            let (premium, premiumJWS) = try market.buySigned("market.premium", account: "eve")
            let refundedJWS = try market.signed(try market.refund(premium.transactionId))
            #expect(try await client.postTransaction(refundedJWS, for: "eve").status == 200)
            let replay = try await client.postTransaction(premiumJWS, for: "eve")
            #expect(replay.status == 200, "\(replay)")
            #expect(try Self.outcome(replay) == "unchanged")
            #expect(JSONFields.nonConsumables(try await client.customer("eve")).isEmpty)
        }

        @Test func aLaterCopyWithoutRevocationRestoresThePurchase() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            let (premium, premiumJWS) = try market.buySigned("market.premium", account: "rita")
            let refunded = try market.refund(premium.transactionId)
            #expect(try await client.postTransaction(premiumJWS, for: "rita").status == 200)
            #expect(try await client.postTransaction(try market.signed(refunded), for: "rita").status == 200)
            var reversed = refunded
            reversed.revocationDate = nil
            reversed.revocationReason = nil
            reversed.revocationType = nil
            reversed.signedDate = try #require(refunded.signedDate).addingTimeInterval(30)
            let reversal = try market.signed(reversed)
            #expect(try Self.outcome(try await client.postTransaction(reversal, for: "rita")) == "updated")
            #expect(JSONFields.nonConsumables(try await client.customer("rita")) == ["market.premium"])
            // ... and the refund, signed before the reversal, cannot take it away again.
            #expect(try Self.outcome(try await client.postTransaction(try market.signed(refunded), for: "rita"))
                == "unchanged")
            #expect(JSONFields.nonConsumables(try await client.customer("rita")) == ["market.premium"])
        }

        /// Pairs of ids Swift's `String ==` calls equal; the store keeps them apart, and so must the cache.
        static let lookAlikes: [(String, String)] = [
            ("caf\u{E9}", "cafe\u{301}"),
            ("KATE", "\u{212A}ATE"),
        ]

        @Test(arguments: 0..<2)
        func canonicallyEquivalentIdsAreTwoCustomersInTheCacheToo(_ pair: Int) async throws {
            let (victim, lookAlike) = Self.lookAlikes[pair]
            #expect(victim == lookAlike && !victim.utf8.elementsEqual(lookAlike.utf8), "the pair must look alike")
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "victim")
            #expect(try await client.postTransaction(jws, for: victim).status == 200)
            #expect(JSONFields.nonConsumables(try await client.customer(victim)) == ["market.premium"])
            let other = try await client.customer(lookAlike)
            #expect(JSONFields.nonConsumables(other).isEmpty, "the look-alike was served the victim's state")
            #expect((other["appUserId"] as? String)?.utf8.elementsEqual(lookAlike.utf8) == true)

            #expect(try fixture.server.terminate() == 0)
            try fixture.restart()
            let restarted = fixture.client
            #expect(JSONFields.nonConsumables(try await restarted.customer(lookAlike)).isEmpty)
            let again = try await restarted.customer(victim)
            #expect(JSONFields.nonConsumables(again) == ["market.premium"], "one GET of the look-alike blanked the victim")
        }

        @Test func aLookAlikeCurrencyOrSpendIdIsItsOwnName() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.coins.100", account: "sam")
            #expect(try await client.postTransaction(jws, for: "sam").status == 200)
            // "coins" with U+0441 CYRILLIC SMALL LETTER ES is another (unknown) currency; the path is bytes.
            let unknown = try await client.spend(5, of: "\u{441}oins", id: "s-1", for: "sam")
            #expect(unknown.status == 404 || unknown.status == 400, "\(unknown)")
            #expect(try await client.spend(5, id: "caf\u{E9}", for: "sam").status == 200)
            let second = try await client.spend(5, id: "cafe\u{301}", for: "sam")
            #expect(second.status == 200, "\(second)")
            #expect((try second.json()["spend"] as? [String: Any])?["outcome"] as? String == "recorded",
                    "a spend id with other bytes is another spend")
            #expect(JSONFields.balance(try await client.customer("sam")) == 90)
        }

        @Test(arguments: ["transfer", "keep"])
        func oneCoinPurchaseCreditsOneAccountUnderEveryPolicy(_ policy: String) async throws {
            var options = ServerOptions()
            options.ownership = policy
            let fixture = try ServerFixture(options)
            let client = fixture.client
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.coins.100", account: "shared")
            #expect(try await client.postTransaction(jws, for: "first").status == 200)
            for account in ["second", "third", "fourth", "fifth"] {
                let reply = try await client.postTransaction(jws, for: account)
                #expect(reply.status == 409, "\(account): \(reply)")
                #expect(reply.errorCode == "owned_by_another_customer", "\(account): \(reply)")
                #expect(JSONFields.balance(try await client.customer(account)) == 0)
                #expect(try await client.spend(100, id: "\(account)-spend", for: account).status == 409)
            }
            let first = try await client.customer("first")
            #expect(JSONFields.balance(first) == 100)
            #expect(JSONFields.debt(first) == 0)
            #expect(JSONFields.items(try await client.history("first"), kind: "transfer").isEmpty)
            #expect(try await client.spend(100, id: "first-spend", for: "first").status == 200)
        }

        @Test func aRestorablePurchaseMovesButTheCoinsBoughtWithTheSameAccountTokenStay() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            let token = UUID().uuidString.lowercased()
            var coins = try market.buy("market.coins.100", account: "family")
            var premium = try market.buy("market.premium", account: "family")
            coins.appAccountToken = token
            premium.appAccountToken = token
            let (coinsJWS, premiumJWS) = (try market.signed(coins), try market.signed(premium))
            for jws in [coinsJWS, premiumJWS] { #expect(try await client.postTransaction(jws, for: "ann").status == 200) }
            let moved = try await client.postTransaction(premiumJWS, for: "ben")
            #expect(try Self.outcome(moved) == "transferred", "\(moved)")
            let ben = try await client.customer("ben")
            #expect(JSONFields.nonConsumables(ben) == ["market.premium"])
            #expect(JSONFields.balance(ben) == 0, "the coins moved with the token: \(ben)")
            let ann = try await client.customer("ann")
            #expect(JSONFields.nonConsumables(ann).isEmpty)
            #expect(JSONFields.balance(ann) == 100)
            #expect(JSONFields.debt(ann) == 0)
        }

        @Test func aCoinRefundPostedByAnotherCustomerClawsBackFromTheOwner() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            let (coins, jws) = try market.buySigned("market.coins.100", account: "shared")
            #expect(try await client.postTransaction(jws, for: "owner").status == 200)
            #expect(try await client.spend(30, id: "owner-1", for: "owner").status == 200)
            let refund = try await client.postTransaction(try market.signed(try market.refund(coins.transactionId)),
                                                          for: "other")
            #expect(refund.status == 200, "newer facts about the owner's coins were stored: \(refund)")
            #expect(try Self.outcome(refund) == "kept")
            let owner = try await client.customer("owner")
            #expect(JSONFields.balance(owner) == 0)
            #expect(JSONFields.debt(owner) == 30)
            let other = try await client.customer("other")
            #expect(JSONFields.balance(other) == 0 && JSONFields.debt(other) == 0)
        }
    }
}
