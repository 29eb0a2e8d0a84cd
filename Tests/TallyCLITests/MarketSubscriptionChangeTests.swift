import Foundation
import Testing

/// `tally market buy` of another subscription of the group in force reports the change, not a purchase.
@Suite("tally market buy: downgrades scheduled and cancelled")
struct MarketSubscriptionChangeTests {
    @Test func aDowngradeIsScheduledAndBuyingTheCurrentOneAgainCancelsIt() throws {
        let store = try MarketSandbox()
        let bought = try store.market("buy", "market.pro.monthly", "--json")
        let pro = try #require(try bought.json()["transactionId"] as? String)

        let downgrade = try store.market("buy", "market.plus.monthly", "--json")
        #expect(downgrade.status == 0)
        let scheduled = try downgrade.json()
        #expect(scheduled["outcome"] as? String == "changeScheduled")
        #expect(scheduled["productId"] as? String == "market.plus.monthly")
        #expect(scheduled["currentProductId"] as? String == "market.pro.monthly")
        #expect(scheduled["transactionId"] as? String == pro)
        #expect(scheduled["effectiveDate"] as? String == "2026-01-08T09:00:00Z")  // the trial's end
        #expect(try store.market("status").stdout.contains("renews as market.plus.monthly"))

        let again = try store.market("buy", "market.pro.monthly")
        #expect(again.status == 0)
        #expect(again.stdout.contains("Kept market.pro.monthly: the change to market.plus.monthly scheduled on "
            + "2026-01-08T09:00:00Z is cancelled"), "\(again.stdout)")
        #expect(!again.stdout.contains("Purchased"))
        #expect(!(try store.market("status").stdout.contains("renews as market.plus.monthly")))
    }

    @Test func anUpgradeIsAPurchaseOfTheHigherLevelEvenWhileADowngradeWasScheduled() throws {
        let store = try MarketSandbox()
        #expect(try store.market("buy", "market.plus.monthly").status == 0)
        let upgrade = try store.market("buy", "market.pro.monthly", "--json")
        #expect(try upgrade.json()["outcome"] as? String == "purchased")
        #expect(try store.market("status").stdout.contains("Subscription market.pro.monthly: subscribed"))
        // A crossgrade to another period length waits for the renewal, like a downgrade.
        let crossgrade = try store.market("buy", "market.pro.yearly", "--json").json()
        #expect(crossgrade["outcome"] as? String == "changeScheduled")
        #expect(crossgrade["currentProductId"] as? String == "market.pro.monthly")
    }
}
