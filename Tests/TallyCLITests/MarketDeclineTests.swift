import Foundation
import Testing

@Suite("tally market: a declined Ask to Buy ends in the app")
struct MarketDeclineTests {
    @Test func aDeclineEndsThePendingPurchaseWithItsContextOnce() throws {
        let store = try MarketSandbox()
        #expect(try store.run("set", "ask-to-buy", "on", "--account", "kid").status == 0)
        let asked = try store.market("buy", "market.coins.100", "--account", "kid", "--json")
        #expect(asked.status == 0)
        let purchaseId = try #require(try asked.json()["purchaseId"] as? String)
        #expect(try store.run("decline", purchaseId).status == 0)

        let next = try store.market("status", "--account", "kid")
        #expect(next.status == 0)
        #expect(next.stdout.contains("event: declined market.coins.100 (purchase \(purchaseId)"), "\(next.stdout)")
        #expect(next.stdout.contains("context screen=market"))
        #expect(!next.stdout.contains("waits for approval"))

        let restarted = try store.market("status", "--account", "kid")
        #expect(!restarted.stdout.contains("event: declined"), "a decline is announced once")
        #expect(!restarted.stdout.contains("waits for approval"))
        let json = try store.marketStatus("--account", "kid")
        #expect((json["pending"] as? [Any])?.isEmpty == true)
        #expect((json["balances"] as? [String: Any])?["coins"] as? Int ?? 0 == 0)

        #expect(try store.run("set", "ask-to-buy", "off", "--account", "kid").status == 0)
        #expect(try store.market("buy", "market.coins.100", "--account", "kid").status == 0)
        let bought = try store.marketStatus("--account", "kid")
        #expect((bought["pending"] as? [Any])?.isEmpty == true)
        #expect((bought["balances"] as? [String: Any])?["coins"] as? Int == 100)
    }

    @Test func aDeclineInTheSandboxShowsUpInTheRunningMarket() throws {
        let store = try MarketSandbox()
        #expect(try store.run("set", "ask-to-buy", "on").status == 0)
        let market = try RunningMarket(["--data", store.directory.path])
        market.send("buy market.premium")
        #expect(market.waitFor("Pending: purchase purchase-1"))
        #expect(try store.run("decline", "purchase-1").status == 0)
        #expect(market.waitFor("event: declined market.premium (purchase purchase-1"), "\(market.text)")
        market.send("status")
        #expect(market.waitFor("Premium: LOCKED\nFeatures: none\nPayments: allowed"), "\(market.text)")
        #expect(try market.quit() == 0)
        let afterDecline = try #require(market.text.range(of: "event: declined"))
        #expect(!market.text[afterDecline.upperBound...].contains("waits for approval"))
    }
}
