import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

@Suite("Store callbacks and model", .timeLimit(.minutes(1)))
struct StoreAdapterTests {
    @Test("callbacks: purchase completion on the main actor, events to a closure until cancelled")
    func callbacks() async throws {
        let store = try await Harness().launch()
        let (seen, done) = AsyncStream<StoreEvent>.makeStream()
        let subscription = store.onEvent { event in
            MainActor.assertIsolated()
            done.yield(event)
        }
        let result = await withCheckedContinuation { continuation in
            store.purchase(Shop.premium, context: PurchaseContext(screen: "settings")) { result in
                MainActor.assertIsolated()
                continuation.resume(returning: result)
            }
        }
        let transaction = try #require(try result.get().transaction)
        let events = try await collect(seen) { $0.name == "purchased" }
        #expect(events.last == .purchased(transaction, context: PurchaseContext(screen: "settings")))
        subscription.cancel()

        let restored = await withCheckedContinuation { continuation in
            store.restore { continuation.resume(returning: $0) }
        }
        #expect(try restored.get().map(\.transactionId) == [transaction.transactionId])
    }

    @Test("callbacks: a failure reaches the completion as a typed error")
    func callbackFailure() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        await harness.backend.setNext(.fail(StoreError(.networkError, "offline")))
        let result = await withCheckedContinuation { continuation in
            store.purchase(Shop.coins) { continuation.resume(returning: $0) }
        }
        #expect(throws: StoreError(.networkError, "offline")) { try result.get() }
    }

    @MainActor
    @Test("the observable model follows events: products, state and the last event")
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)  // StoreModel
    func model() async throws {
        let harness = Harness()
        let model = await StoreModel(store: try await harness.launch())
        await model.loadProducts([Shop.premium, Shop.unknown])
        #expect(model.products.map(\.id) == [Shop.premium])
        #expect(model.invalidProductIds == [Shop.unknown])
        let product = try #require(model.products.first)
        #expect(model.isEntitled("premium") == false)

        await model.purchase(product)
        await waitFor { model.isEntitled("premium") }
        #expect(model.lastError == nil)

        await harness.backend.setNext(.askToBuy)
        await model.purchase(product, context: PurchaseContext(screen: "model"))
        await waitFor { model.pendingPurchases.count == 1 }
        #expect(model.pendingPurchases.first?.context.screen == "model")
    }

    /// Lets the main actor run until `condition` holds; records an issue after about 10 seconds instead of
    /// hanging (a safety net only: no assertion depends on timing).
    @MainActor
    func waitFor(_ condition: @MainActor () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
        for _ in 0..<1000 where !condition() {
            try? await Task.sleep(for: .milliseconds(10))
        }
        if !condition() { Issue.record("the model never reached the expected state", sourceLocation: sourceLocation) }
    }
}
