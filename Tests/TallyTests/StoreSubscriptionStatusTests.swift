import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

@Suite("Store subscription status (renewal info without a transaction)")
struct StoreSubscriptionStatusTests {
    /// Buys the monthly subscription and returns the store, its chain and the subscription's state.
    private func subscribed(_ harness: Harness) async throws -> (Store, String) {
        let store = try await harness.launch()
        let bought = try #require(try await store.purchase(Shop.proMonthly).transaction)
        let subscription = try #require(await store.state.subscriptions.first)
        #expect(subscription.willRenew)
        return (store, bought.originalTransactionId)
    }

    /// The customer file's bytes: snapshot and journal.
    private func files(_ directory: URL) throws -> [Data] {
        try ["customer.json", "customer.journal"].map { try Data(contentsOf: directory.appendingPathComponent($0)) }
    }

    @Test("auto-renew turned off in the store shows after refreshSubscriptionStatus, and survives a restart")
    func autoRenewOff() async throws {
        let harness = Harness()
        let (store, chain) = try await subscribed(harness)
        try #require(await harness.backend.changeRenewal(of: chain, autoRenewStatus: .off) != nil)
        #expect(await store.refresh().subscriptions.first?.willRenew == true, "nothing known before asking")

        let state = try await store.refreshSubscriptionStatus()
        let subscription = try #require(state.subscriptions.first)
        #expect(subscription.willRenew == false)
        #expect(subscription.status == .subscribed)
        #expect(await store.state.subscriptions.first?.willRenew == false)
        await store.close()

        let again = try await harness.launch()
        #expect(await again.state.subscriptions.first?.willRenew == false)
        #expect(await again.history.renewalInfos.first?.autoRenewStatus == .off)
    }

    @Test("a scheduled downgrade shows as the pending product")
    func scheduledDowngrade() async throws {
        let harness = Harness()
        let (store, chain) = try await subscribed(harness)
        #expect(await store.state.subscriptions.first?.pendingProductId == nil)
        try #require(await harness.backend.changeRenewal(of: chain, autoRenewStatus: .on,
                                                         autoRenewProductId: "shop.pro.lite") != nil)
        let subscription = try #require(try await store.refreshSubscriptionStatus().subscriptions.first)
        #expect(subscription.willRenew)
        #expect(subscription.pendingProductId == "shop.pro.lite")
        #expect(subscription.productId == Shop.proMonthly)
    }

    @Test("unchanged renewal info writes nothing; a change appends to the journal")
    func unchangedWritesNothing() async throws {
        let harness = Harness()
        let (store, chain) = try await subscribed(harness)
        let before = try files(harness.directory)
        _ = try await store.refreshSubscriptionStatus()
        _ = try await store.refreshSubscriptionStatus()
        #expect(await harness.backend.statusRequests == 2)
        #expect(try files(harness.directory) == before)

        try #require(await harness.backend.changeRenewal(of: chain, autoRenewStatus: .off) != nil)
        _ = try await store.refreshSubscriptionStatus()
        let after = try files(harness.directory)
        #expect(after[1].count > before[1].count)
        _ = try await store.refreshSubscriptionStatus()
        #expect(try files(harness.directory) == after)
    }

    @Test("a failing backend throws and leaves the state as it was")
    func failureThrows() async throws {
        let harness = Harness()
        let (store, chain) = try await subscribed(harness)
        try #require(await harness.backend.changeRenewal(of: chain, autoRenewStatus: .off) != nil)
        await harness.backend.failStatus(times: 1)
        await #expect(throws: StoreError.self) { try await store.refreshSubscriptionStatus() }
        #expect(await store.state.subscriptions.first?.willRenew == true)
        #expect(try await store.refreshSubscriptionStatus().subscriptions.first?.willRenew == false)
    }
}
