import Foundation
import Testing

/// The subscriptions of `tally market status --json`.
private func subscriptions(_ status: [String: Any]) -> [[String: Any]] {
    status["subscriptions"] as? [[String: Any]] ?? []
}

@Suite("tally market status: renewal info changed in the sandbox without a transaction")
struct MarketStatusTests {
    @Test func autoRenewTurnedOffInTheSandboxShowsInStatus() throws {
        let store = try MarketSandbox()
        #expect(try store.market("buy", "market.pro.monthly").status == 0)
        let before = try #require(subscriptions(try store.marketStatus()).first)
        #expect(before["productId"] as? String == "market.pro.monthly")
        #expect(before["willRenew"] as? Bool == true)

        let off = try store.run("auto-renew", "market.pro.monthly", "off")
        #expect(off.status == 0, "\(off.stderr)")
        let after = try #require(subscriptions(try store.marketStatus()).first)
        #expect(after["productId"] as? String == "market.pro.monthly")
        #expect(after["willRenew"] as? Bool == false)
        let text = try store.market("status")
        #expect(text.stdout.contains("Subscription market.pro.monthly: subscribed"))
        #expect(text.stdout.contains("does not renew"))

        #expect(try store.run("auto-renew", "market.pro.monthly", "on").status == 0)
        #expect(subscriptions(try store.marketStatus()).first?["willRenew"] as? Bool == true)
    }

    @Test func downgradeScheduledOnAnotherDeviceShowsAsThePendingProduct() throws {
        let store = try MarketSandbox()
        #expect(try store.market("buy", "market.pro.monthly").status == 0)
        #expect(subscriptions(try store.marketStatus()).first?["pendingProductId"] is NSNull, "the customer object writes null")
        let downgrade = try store.run("buy", "market.plus.monthly", "--device", "ipad")
        #expect(downgrade.status == 0, "\(downgrade.stderr)")
        let after = try #require(subscriptions(try store.marketStatus()).first)
        #expect(after["productId"] as? String == "market.pro.monthly")
        #expect(after["willRenew"] as? Bool == true)
        #expect(after["pendingProductId"] as? String == "market.plus.monthly")
        #expect(try store.market("status").stdout.contains(", renews as market.plus.monthly"))
    }
}
