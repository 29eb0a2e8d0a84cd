import Foundation
import Testing

/// The market's status lines name the date each state is about, and amounts read as English.
@Suite("tally market status texts")
struct MarketStatusTextTests {
    @Test func graceShowsTheGraceEndAndARevokedSubscriptionItsRevocationDate() throws {
        let store = try MarketSandbox()  // 2026-01-01T09:00:00Z; pro.monthly starts with a one-week trial
        #expect(try store.market("buy", "market.pro.monthly").status == 0)
        #expect(try store.run("set", "billing-issue", "on").status == 0)
        #expect(try store.run("set", "grace-period", "on").status == 0)
        #expect(try store.run("advance", "8d").status == 0)
        let grace = try store.market("status").stdout
        // Grace ends 16 days after the trial's end (2026-01-08), not at the trial's end.
        #expect(grace.contains("Subscription market.pro.monthly: inGracePeriod until 2026-01-24T09:00:00Z"), "\(grace)")
        #expect(grace.contains("Features: plus, pro"))

        #expect(try store.run("set", "billing-issue", "off").status == 0)
        #expect(try store.run("advance", "1d").status == 0)  // the retry succeeds: a renewal
        let history = try store.run("history", "--json").json()
        let transactions = history["transactions"] as? [[String: Any]] ?? []
        let latest = try #require((transactions.last?["transaction"] as? [String: Any])?["transactionId"] as? String)
        #expect(try store.run("refund", latest).status == 0)
        #expect(try store.run("advance", "3d").status == 0)
        let revoked = try store.market("status").stdout
        // Refunded on 2026-01-10 (the sandbox's now then), while the period ran to 2026-02-09.
        #expect(revoked.contains("Subscription market.pro.monthly: revoked on 2026-01-10T09:00:00Z"), "\(revoked)")
    }

    @Test func oneCoinIsSingular() throws {
        let store = try MarketSandbox()
        #expect(try store.market("buy", "market.coins.10").status == 0)
        let one = try store.market("spend", "coins", "1")
        #expect(one.stdout.contains("Spent 1 coin; COINS: 9"), "\(one.stdout)")
        let two = try store.market("spend", "coins", "2")
        #expect(two.stdout.contains("Spent 2 coins; COINS: 7"))
    }
}
