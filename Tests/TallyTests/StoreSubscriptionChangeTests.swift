import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

/// A downgrade is a change scheduled for the next renewal, not a purchase of the product in force.
@Suite("Store subscription changes (downgrade at renewal, cancelled by buying the current one)",
       .timeLimit(.minutes(1)))
struct StoreSubscriptionChangeTests {
    @Test("buying a lower level while subscribed schedules a change for the renewal and says so")
    func downgradeIsScheduled() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let events = store.events()
        let pro = try #require(try await store.purchase(Shop.proMonthly).transaction)
        _ = try await collect(events) { $0.name == "entitlementsChanged" }

        let outcome = try await store.purchase(Shop.liteMonthly, context: PurchaseContext(screen: "plans"))
        guard case .changeScheduled(let change) = outcome else {
            Issue.record("a downgrade answered \(outcome), not changeScheduled")
            return
        }
        #expect(change.productId == Shop.liteMonthly)
        #expect(change.currentProductId == Shop.proMonthly)
        #expect(change.groupId == "pro")
        #expect(change.change == .downgrade)
        #expect(change.date == pro.expiresDate)
        #expect(change.transaction.transactionId == pro.transactionId)
        let seen = try await collect(events) { $0.name == "changeScheduled" }
        #expect(seen.map(\.name) == ["purchasing", "changeScheduled"])
        #expect(seen.last == .changeScheduled(change))

        let state = await store.state
        #expect(state.isEntitled("pro"))
        #expect(!state.isEntitled("lite"))
        #expect(state.subscriptions.first?.pendingProductId == Shop.liteMonthly)

        // At the renewal the store renews as lite: pro is lost, lite gained.
        harness.clock.advance(days: 31)
        await harness.backend.renew(pro.originalTransactionId)
        let renewed = try await collect(events) { $0.name == "entitlementsChanged" }
        #expect(renewed.last == .entitlementsChanged(gained: ["lite"], lost: ["pro"]))
    }

    @Test("buying the product in force again cancels the scheduled change and says so")
    func rebuyCancelsTheChange() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let events = store.events()
        let pro = try #require(try await store.purchase(Shop.proMonthly).transaction)
        guard case .changeScheduled(let scheduled) = try await store.purchase(Shop.liteMonthly) else {
            Issue.record("the downgrade was not scheduled")
            return
        }
        _ = try await collect(events) { $0.name == "changeScheduled" }

        let outcome = try await store.purchase(Shop.proMonthly)
        #expect(outcome == .changeCancelled(ScheduledChange(
            productId: Shop.liteMonthly, currentProductId: Shop.proMonthly, groupId: "pro", change: .downgrade,
            date: scheduled.date, transaction: pro)))
        let seen = try await collect(events) { $0.name == "changeCancelled" }
        #expect(seen.map(\.name) == ["purchasing", "changeCancelled"])
        #expect(await store.state.subscriptions.first?.pendingProductId == nil)
    }

    @Test("buying the product in force with no change scheduled answers with it, announced once")
    func rebuyWithNothingScheduled() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let pro = try #require(try await store.purchase(Shop.proMonthly).transaction)
        let events = store.events()
        #expect(try await store.purchase(Shop.proMonthly) == .purchased(pro))
        let marker = await harness.backend.buyElsewhere(Shop.coins)
        let seen = try await collect(events) { event in
            if case .purchased(let transaction, _) = event { return transaction == marker }
            return false
        }
        #expect(seen.filter { $0.name == "purchased" }.count == 2)  // the replayed first purchase, the marker
        #expect(!seen.contains { $0.name == "changeCancelled" || $0.name == "changeScheduled" })
    }
}
