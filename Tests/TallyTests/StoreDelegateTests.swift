import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

/// A view controller's delegate as the `IAPManager` tutorials write it: records each call, checking it is on the
/// main actor.
@MainActor
final class RecordingDelegate: StoreDelegate {
    private(set) var calls: [String] = []
    private(set) var everyEvent: [String] = []
    private let (stream, continuation) = AsyncStream<String>.makeStream()

    /// The calls as they come, for awaiting one.
    var arriving: AsyncStream<String> { stream }

    private func record(_ call: String) {
        MainActor.assertIsolated()
        calls.append(call)
        continuation.yield(call)
    }

    func store(_ store: Store, didPurchase transaction: StoreTransaction, context: PurchaseContext?) {
        record("purchased \(transaction.productId) \(context?.screen ?? "-")")
    }
    func store(_ store: Store, didFailWith error: StoreError, productId: String?) {
        record("failed \(productId ?? "-") \(error.code)")
    }
    func store(_ store: Store, didRestore count: Int) { record("restored \(count)") }
    func store(_ store: Store, isWaitingForApprovalOf purchase: PendingPurchase) {
        record("pending \(purchase.productId)")
    }
    func store(_ store: Store, didRevoke transaction: StoreTransaction) { record("revoked \(transaction.productId)") }
    func store(_ store: Store, didChangeBalanceOf currency: String, to balance: Decimal) {
        record("balance \(currency) \(balance)")
    }
    func store(_ store: Store, didCancelPurchaseOf productId: String) { record("cancelled \(productId)") }
    func store(_ store: Store, didEmit event: StoreEvent) {
        MainActor.assertIsolated()
        everyEvent.append(event.name)
    }

    /// Waits until a call equal to `call` has come (in `calls`, or when it arrives).
    func waitFor(_ call: String) async throws {
        if calls.contains(call) { return }
        let limit = Task {
            try? await Task.sleep(for: .seconds(10))
            continuation.finish()
        }
        defer { limit.cancel() }
        for await arrived in stream where arrived == call { return }
        Issue.record("the delegate never got \(call); it got \(calls)")
    }
}

/// A delegate that implements only one method (the others keep their empty defaults).
@MainActor
final class PurchasesOnlyDelegate: StoreDelegate {
    var purchased: [String] = []
    func store(_ store: Store, didPurchase transaction: StoreTransaction, context: PurchaseContext?) {
        purchased.append(transaction.productId)
    }
}

@Suite("StoreDelegate: the store's events as delegate calls on the main actor", .timeLimit(.minutes(1)))
@MainActor
struct StoreDelegateTests {
    @Test("purchase, balance, pending, cancel, failure, restore and refund reach their delegate methods in order")
    func everyOutcome() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let delegate = RecordingDelegate()
        let subscription = store.setDelegate(delegate)
        defer { subscription.cancel() }

        let premium = try #require(
            try await store.purchase(Shop.premium, context: PurchaseContext(screen: "paywall")).transaction)
        _ = try await store.purchase(Shop.coins)
        await harness.backend.setNext(.askToBuy)
        _ = try await store.purchase(Shop.proMonthly)
        await harness.backend.setNext(.cancel)
        _ = try await store.purchase(Shop.coins)
        await harness.backend.setNext(.fail(StoreError(.networkError, "offline")))
        _ = try? await store.purchase(Shop.coins)
        _ = try await store.restore()
        await harness.backend.refund(premium.transactionId)
        try await delegate.waitFor("revoked \(Shop.premium)")

        #expect(delegate.calls == [
            "purchased \(Shop.premium) paywall",
            "purchased \(Shop.coins) -", "balance coins 10",
            "pending \(Shop.proMonthly)",
            "cancelled \(Shop.coins)",
            "failed \(Shop.coins) networkError",
            "restored 1",
            "revoked \(Shop.premium)",
        ])
        #expect(delegate.everyEvent.contains("entitlementsChanged"))  // no method of its own: didEmit has it
        #expect(delegate.everyEvent.filter { $0 == "purchased" }.count == 2)
    }

    @Test("the launch's events reach a delegate set right after the store is created")
    func launchReplay() async throws {
        let harness = Harness()
        let first = try await harness.launch()
        await harness.backend.setNext(.askToBuy)
        let pending = try await first.purchase(Shop.premium)
        guard case .pending(let purchase) = pending else {
            Issue.record("the purchase answered \(pending)")
            return
        }
        await first.close()
        await harness.backend.approve(purchase.id)  // approved while the app was not running

        let store = try await harness.launch()
        let delegate = RecordingDelegate()
        let subscription = store.setDelegate(delegate)
        defer { subscription.cancel() }
        try await delegate.waitFor("purchased \(Shop.premium) -")
    }

    @Test("the store holds its delegate weakly; a delegate implements only what it needs")
    func weakAndDefaults() async throws {
        let store = try await Harness().launch()
        var delegate: PurchasesOnlyDelegate? = PurchasesOnlyDelegate()
        weak let held = delegate
        let subscription = store.setDelegate(try #require(delegate))
        defer { subscription.cancel() }
        _ = try await store.purchase(Shop.coins)
        delegate = nil
        #expect(held == nil)
    }
}
