import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

/// Losing (or keeping) access through a failed renewal is announced, so the app can lock the feature at once.
@Suite("Store billing retry, grace and entitlement changes", .timeLimit(.minutes(1)))
struct StoreBillingRetryTests {
    /// A store with a pro subscription bought at the start, its events listened to from launch.
    private func subscribed() async throws -> (Harness, Store, AsyncStream<StoreEvent>, StoreTransaction) {
        let harness = Harness()
        let store = try await harness.launch()
        let events = store.events()
        let bought = try #require(try await store.purchase(Shop.proMonthly).transaction)
        return (harness, store, events, bought)
    }

    /// The store's renewal info turned to billing retry, with a grace period ending at `grace` if given.
    private func failRenewal(_ harness: Harness, _ transaction: StoreTransaction, grace: Date?) async throws {
        var info = try #require(await harness.backend.renewalInfo(of: transaction.originalTransactionId))
        info.isInBillingRetryPeriod = true
        info.gracePeriodExpiresDate = grace
        info.signedDate = harness.clock.now
        await harness.backend.setRenewalInfo(info)
    }

    @Test("a purchase announces the features gained; a refund the features lost")
    func entitlementsFollowPurchaseAndRefund() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let events = store.events()
        let premium = try #require(try await store.purchase(Shop.premium).transaction)
        let gained = try await collect(events) { $0.name == "entitlementsChanged" }
        #expect(gained.last == .entitlementsChanged(gained: ["premium"], lost: []))
        await harness.backend.refund(premium.transactionId)
        let lost = try await collect(events) { $0.name == "entitlementsChanged" }
        #expect(lost.map(\.name) == ["revoked", "entitlementsChanged"])
        #expect(lost.last == .entitlementsChanged(gained: [], lost: ["premium"]))
    }

    @Test("entering billing retry without grace emits billingRetry and the lost feature")
    func billingRetryWithoutGrace() async throws {
        let (harness, store, events, bought) = try await subscribed()
        _ = try await collect(events) { $0.name == "entitlementsChanged" }
        try await failRenewal(harness, bought, grace: nil)
        harness.clock.advance(days: 32)
        let state = try await store.refreshSubscriptionStatus()
        #expect(state.subscriptions.first?.status == .inBillingRetry)
        let seen = try await collect(events) { $0.name == "entitlementsChanged" }
        #expect(seen.map(\.name) == ["billingRetry", "entitlementsChanged"])
        if case .billingRetry(let subscription) = seen.first { #expect(subscription.productId == Shop.proMonthly) }
        #expect(seen.last == .entitlementsChanged(gained: [], lost: ["pro"]))
    }

    @Test("grace keeps access and says so; grace running out locks; retry giving up expires")
    func graceThenRetryThenExpiry() async throws {
        let (harness, store, events, bought) = try await subscribed()
        _ = try await collect(events) { $0.name == "entitlementsChanged" }
        let expires = try #require(bought.expiresDate)
        let graceEnd = expires.addingTimeInterval(16 * 86_400)
        try await failRenewal(harness, bought, grace: graceEnd)
        harness.clock.advance(days: 32)
        #expect(try await store.refreshSubscriptionStatus().isEntitled("pro"))
        let grace = try await collect(events) { $0.name == "gracePeriod" }
        #expect(grace.map(\.name) == ["gracePeriod"])
        if case .gracePeriod(let subscription) = grace.last { #expect(subscription.gracePeriodExpiresDate == graceEnd) }

        // The grace period runs out with time alone: no transaction, no renewal info change.
        harness.clock.advance(days: 20)
        #expect(await store.refresh().isEntitled("pro") == false)
        let locked = try await collect(events) { $0.name == "entitlementsChanged" }
        #expect(locked.map(\.name) == ["billingRetry", "entitlementsChanged"])
        #expect(locked.last == .entitlementsChanged(gained: [], lost: ["pro"]))

        // The store gives up retrying: the subscription expires (from billing retry, not from entitled).
        var info = try #require(await harness.backend.renewalInfo(of: bought.originalTransactionId))
        info.isInBillingRetryPeriod = false
        info.expirationIntent = .billingError
        info.autoRenewStatus = .off
        info.signedDate = harness.clock.now
        await harness.backend.setRenewalInfo(info)
        try await store.refreshSubscriptionStatus()
        let expired = try await collect(events) { $0.name == "expired" }
        #expect(expired.map(\.name) == ["expired"])
    }
}
