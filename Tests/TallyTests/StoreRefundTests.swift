import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

@Suite("Store refunds and renewals")
struct StoreRefundTests {
    @Test("a refund revokes premium")
    func refundRevokesPremium() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        store.attachFirstSubscriber()
        let premium = try #require(try await store.purchase(Shop.premium).transaction)
        let events = store.events()
        let refunded = try #require(await harness.backend.refund(premium.transactionId))
        let seen = try await collect(events) { $0.name == "revoked" }
        #expect(seen == [.revoked(refunded)])
        #expect(await store.isEntitled("premium") == false)
        #expect(await store.history.transactions == [refunded])
    }

    @Test("a refund of coins already spent claws them back and shows the debt")
    func refundClawsBackCoins() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        _ = try await store.purchase(Shop.coins)
        let second = try #require(try await store.purchase(Shop.coins).transaction)
        #expect(try await store.spend(15, of: "coins", id: "sword-1"))
        let events = store.events()
        await harness.backend.refund(second.transactionId)
        _ = try await collect(events) { $0.name == "revoked" }
        let state = await store.state
        #expect(state.balance("coins") == 0)
        #expect(state.debts["coins"] == 5)
    }

    @Test("a late copy of a refunded purchase does not undo the refund")
    func lateCopyDoesNotUndoRefund() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        store.attachFirstSubscriber()
        let original = try #require(try await store.purchase(Shop.premium).transaction)
        let events = store.events()
        await harness.backend.refund(original.transactionId)
        await harness.backend.send(original)
        let marker = await harness.backend.buyElsewhere(Shop.coins)
        let seen = try await collect(events) { event in
            if case .purchased(let transaction, _) = event { return transaction == marker }
            return false
        }
        #expect(seen.map(\.name) == ["revoked", "entitlementsChanged", "purchased"])
        #expect(await store.history.transactions.first { $0.transactionId == original.transactionId }?.isRevoked == true)
        #expect(await store.isEntitled("premium") == false)
    }

    @Test("a renewal is delivered as renewed and extends the subscription")
    func renewal() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        store.attachFirstSubscriber()
        let first = try #require(try await store.purchase(Shop.proMonthly).transaction)
        let events = store.events()
        let renewal = try #require(await harness.backend.renew(first.originalTransactionId))
        #expect(try await collect(events) { $0.name == "renewed" } == [.renewed(renewal)])
        harness.clock.advance(days: 40)
        #expect(await store.isEntitled("pro"))
    }

    @Test("a renewal info update is kept: auto-renew off shows, and nothing is announced as purchased")
    func renewalInfoUpdate() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        store.attachFirstSubscriber()
        let first = try #require(try await store.purchase(Shop.proMonthly).transaction)
        #expect(await store.state.subscriptions.first?.willRenew == true)
        let events = store.events()
        let info = try #require(await harness.backend.turnOffAutoRenew(first.originalTransactionId))
        let marker = await harness.backend.buyElsewhere(Shop.premium)
        let seen = try await collect(events) { event in
            if case .purchased(let transaction, _) = event { return transaction == marker }
            return false
        }
        #expect(seen.map(\.name) == ["purchased"])
        #expect(await store.history.renewalInfos == [info])
        #expect(await store.state.subscriptions.first?.willRenew == false)
    }

    @Test("refresh reports a subscription that expired")
    func expiry() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        store.attachFirstSubscriber()
        _ = try await store.purchase(Shop.proMonthly)
        let events = store.events()
        #expect(await store.refresh().isEntitled("pro"))
        harness.clock.advance(days: 40)
        #expect(await store.refresh().isEntitled("pro") == false)
        let seen = try await collect(events) { $0.name == "expired" }
        guard case .expired(let subscription) = seen.last else { return }
        #expect(subscription.groupId == "pro")
    }
}
