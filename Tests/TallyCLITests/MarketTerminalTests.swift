import Foundation
import Testing

/// The interactive market at a terminal shows what happens in the App Store as it happens, and draws its prompt
/// again after each such event.
@Suite("tally market at a terminal: changes and losses as they happen")
struct MarketTerminalTests {
    @Test func aScheduledDowgradeAndABillingRetryLossShowAsTheyHappen() throws {
        let store = try MarketSandbox()
        let market = try TerminalMarket(["--data", store.directory.path])
        #expect(market.waitFor("> "))
        market.type("buy market.pro.monthly")
        #expect(market.waitFor("Purchased market.pro.monthly"))
        market.type("buy market.plus.monthly")
        #expect(market.waitFor("Scheduled: market.pro.monthly changes to market.plus.monthly at the next renewal on "),
                "\(market.text)")
        #expect(market.waitFor("event: changeScheduled market.pro.monthly → market.plus.monthly"))
        // Not a purchase of either product: the old code printed "Purchased market.pro.monthly" a second time.
        #expect(market.text.components(separatedBy: "Purchased market.pro.monthly").count == 2)
        #expect(!market.text.contains("Purchased market.plus.monthly"))
        market.type("status")
        #expect(market.waitFor("renews as market.plus.monthly"), "\(market.text)")

        // The App Store side: the renewal fails and there is no grace period.
        let before = market.text.count
        #expect(try store.run("set", "billing-issue", "on").status == 0)
        #expect(try store.run("advance", "1M").status == 0)
        #expect(market.waitFor("event: billingRetry market.pro.monthly", after: before), "\(market.text)")
        #expect(market.waitFor("event: entitlementsChanged gained none; lost plus, pro", after: before))
        // The prompt line is cleared before the event and drawn again after it.
        #expect(market.waitFor("\r\u{1B}[2Kevent: billingRetry", after: before))
        let giveUp = Date().addingTimeInterval(30)
        while !market.text.hasSuffix("> "), Date() < giveUp { Thread.sleep(forTimeInterval: 0.05) }
        #expect(market.text.hasSuffix("> "), "no prompt after the event: \(market.text.suffix(200))")
        market.type("status")
        #expect(market.waitFor("Subscription market.pro.monthly: inBillingRetry since", after: before))
        #expect(market.quit() == 0)
    }

    @Test func aDeclinedAskToBuyShowsAsItHappens() throws {
        let store = try MarketSandbox()
        #expect(try store.run("set", "ask-to-buy", "on").status == 0)
        let market = try TerminalMarket(["--data", store.directory.path])
        #expect(market.waitFor("> "))
        market.type("buy market.premium")
        #expect(market.waitFor("Pending: purchase purchase-1"), "\(market.text)")

        // The parent declines from another terminal, while the market waits at its prompt.
        let before = market.text.count
        #expect(try store.run("decline", "purchase-1").status == 0)
        #expect(market.waitFor("\r\u{1B}[2Kevent: declined market.premium (purchase purchase-1", after: before),
                "\(market.text)")
        let giveUp = Date().addingTimeInterval(30)
        while !market.text.hasSuffix("> "), Date() < giveUp { Thread.sleep(forTimeInterval: 0.05) }
        #expect(market.text.hasSuffix("> "), "no prompt after the event: \(market.text.suffix(200))")
        market.type("status")
        #expect(market.waitFor("Premium: LOCKED", after: before), "\(market.text)")
        #expect(!String(market.text.dropFirst(before)).contains("waits for approval"))
        #expect(market.quit() == 0)
    }
}
