import Foundation
import Testing

/// An app on `SandboxBackend` runs on the sandbox's clock, not the wall clock: after `tally sandbox advance`,
/// a refund dated in the sandbox's (future) now and a renewal count at once.
@Suite("One clock: the engine reads the sandbox's time through its backend")
struct OneClockTests {
    /// The id of the first transaction the sandbox in `directory` logged as purchased.
    private func firstTransactionId(in directory: URL) throws -> String {
        let history = try TallyProcess.run(["sandbox", "history", "--json", "--data", directory.path]).json()
        let events = history["events"] as? [[String: Any]] ?? []
        let purchased = try #require(events.first { $0["kind"] as? String == "purchased" })
        return try #require(purchased["transactionId"] as? String)
    }

    @Test func aRefundInTheSandboxsFutureTakesTheCoinsBackInAnAppOnSandboxBackend() throws {
        // The delivery harness is an app on SandboxBackend that passes no clock of its own.
        let harness = try CrashHarness()
        #expect(try harness.buy("market.coins.10").coins == 10)
        #expect(try TallyProcess.run(["sandbox", "advance", "1M", "--data", harness.sandbox.path]).status == 0)
        let refunded = try TallyProcess.run(["sandbox", "refund", try firstTransactionId(in: harness.sandbox),
                                             "--data", harness.sandbox.path])
        #expect(refunded.status == 0, "\(refunded.stderr)")
        // Revoked a month after the wall clock's now: only the sandbox's clock has reached it.
        let after = try harness.relaunch()
        #expect(after.coins == 0)
        #expect(after.transactions == 1)
    }

    @Test func aRenewalAfterAdvanceExtendsTheSubscriptionInTheMarket() throws {
        let start = Date().addingTimeInterval(86_400)
        let store = try MarketSandbox(start: start.formatted(.iso8601))
        #expect(try store.market("buy", "market.pro.monthly").status == 0)
        let first = try #require((try store.marketStatus()["subscriptions"] as? [[String: Any]])?.first)
        #expect(try store.run("advance", "1M").status == 0)
        let later = try #require((try store.marketStatus()["subscriptions"] as? [[String: Any]])?.first)
        #expect(later["status"] as? String == "subscribed")
        let before = try #require(first["expiresDate"] as? String), after = try #require(later["expiresDate"] as? String)
        #expect(after > before, "the renewal was not counted: \(before) → \(after)")
    }
}
