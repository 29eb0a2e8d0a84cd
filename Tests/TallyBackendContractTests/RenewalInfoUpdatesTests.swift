import Foundation
#if os(Linux)
@_spi(Scripting) import StoreKit
#endif
import Tally
import TallyCore
import TallySandbox
import Testing

extension OneAtATime {
/// ``StoreBackend/renewalInfoUpdates()``: renewal-info changes the store pushes (StoreKit's
/// `Product.SubscriptionInfo.Status.updates`, the sandbox's changes) reach the engine with no
/// ``Store/refreshSubscriptionStatus()`` call.
@Suite("Renewal-info updates reach the engine without refreshSubscriptionStatus()")
struct RenewalInfoUpdatesTests {
    @Test("auto-renew turned off reaches the state, durably, with no refresh", arguments: WorldKind.allCases)
    func autoRenewOffArrivesWithoutRefresh(kind: WorldKind) async throws {
        let world = try kind.make()
        let app = App(world)
        let store = try await app.launch()
        _ = try await store.purchase("market.pro.monthly")
        #expect(await store.state.subscriptions.first?.willRenew == true)
        try world.turnOffAutoRenew(productId: "market.pro.monthly")
        #expect(await eventually { await store.state.subscriptions.first?.willRenew == false }, "\(kind)")
        #expect(await store.state.isEntitled("pro"), "still entitled until the period ends")
        await store.close()
        // Written to the customer file: the next launch knows before anything is pushed or refreshed.
        let again = try await app.launch()
        #expect(await again.state.subscriptions.first?.willRenew == false, "\(kind)")
        await again.close()
    }

    @Test("sandbox: billing retry starting on advance with billing-issue on reaches the engine and emits billingRetry")
    func sandboxBillingRetryArrivesWithoutRefresh() async throws {
        let world = try SandboxWorld()
        let store = try await App(world).launch()
        let events = store.events()
        _ = try await store.purchase("market.pro.monthly")
        try world.sandbox.update { sandbox in
            sandbox.set(.billingIssue, enabled: true)
            sandbox.advance(by: SandboxDuration(1, .month))
        }
        // Without the pushed renewal info the lapsed period reads as expired, not billing retry.
        let retried = await eventually { await store.state.subscriptions.first?.status == .inBillingRetry }
        let subscriptions = await store.state.subscriptions
        #expect(retried, "\(subscriptions)")
        await store.close()
        var retrying: [String] = []
        for await event in events {
            if case .billingRetry(let subscription) = event { retrying.append(subscription.productId) }
        }
        #expect(retrying == ["market.pro.monthly"])
    }

    #if os(Linux)
    @Test("StoreKit: billing retry pushed on Status.updates turns a lapsed subscription from expired to billing retry")
    func storeKitBillingRetryArrivesWithoutRefresh() async throws {
        let world = try StoreKitWorld()
        let lapsed = try world.lapsedSubscription("market.pro.monthly")
        let store = try await App(world).launch()
        let events = store.events()
        #expect(await store.state.subscriptions.first?.status == .expired, "the lapsed period reads as expired")
        StoreKitScript.shared.pushStatusUpdate(lapsed.billingRetry)
        #expect(await eventually { await store.state.subscriptions.first?.status == .inBillingRetry })
        #expect(await store.state.isEntitled("pro") == false, "billing retry without grace grants nothing")
        await store.close()
        var retrying: [String] = []
        for await event in events {
            if case .billingRetry(let subscription) = event { retrying.append(subscription.productId) }
        }
        #expect(retrying == ["market.pro.monthly"])
    }

    @Test("StoreKit: a status whose renewal info StoreKit refused, or a foreign key signed, changes nothing; reported")
    func storeKitRefusedOrForgedRenewalInfoChangesNothing() async throws {
        let world = try StoreKitWorld()
        let script = StoreKitScript.shared
        let store = try await App(world).launch()
        _ = try await store.purchase("market.pro.monthly")
        #expect(script.statusUpdateListeners == 1, "the backend listens to Status.updates from the store's creation")
        script.pushStatusUpdate(try world.autoRenewOffStatus(productId: "market.pro.monthly", storeKitRefuses: true))
        script.pushStatusUpdate(try world.autoRenewOffStatus(productId: "market.pro.monthly", forged: true))
        // Statuses are handled in order: once the forged one is reported, the refused one was handled before it.
        #expect(await eventually { await store.diagnostics.contains { $0.kind == .unverifiedRenewalInfo } })
        #expect(await store.state.subscriptions.first?.willRenew == true, "a refused or forged renewal info counted")
        #expect(await eventually {
            await store.diagnostics.contains { $0.kind == .backendProblem && $0.message.contains("could not verify") }
        })
        script.pushStatusUpdate(try world.autoRenewOffStatus(productId: "market.pro.monthly"))
        #expect(await eventually { await store.state.subscriptions.first?.willRenew == false })
        await store.close()
        #expect(await eventually { script.statusUpdateListeners == 0 }, "closing the store stops listening")
    }
    #endif
}
}
