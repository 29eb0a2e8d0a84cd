import Combine
import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

/// The `ObservableObject` model for iOS 15–16 SwiftUI apps (on Linux over the Combine stand-in): the same logic as
/// `StoreModel`, with `objectWillChange` sent before each change.
@Suite("ObservableStoreModel", .timeLimit(.minutes(1)))
@MainActor
struct ObservableStoreModelTests {
    @Test("objectWillChange comes before the purchase shows, and the model ends where StoreModel does")
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)  // StoreModel
    func willChangeBeforePurchase() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let model = await ObservableStoreModel(store: store)
        #expect(model.isEntitled("premium") == false)
        await model.loadProducts([Shop.premium, Shop.coins, Shop.unknown])
        #expect(model.products.map(\.id) == [Shop.premium, Shop.coins])
        #expect(model.invalidProductIds == [Shop.unknown])

        var seenBeforeChange: [Bool] = []
        let watching = model.objectWillChange.sink { seenBeforeChange.append(model.isEntitled("premium")) }
        defer { watching.cancel() }
        let premium = try #require(model.products.first)
        let outcome = await model.purchase(premium)
        #expect(outcome?.transaction?.productId == Shop.premium)
        #expect(model.isEntitled("premium"))
        #expect(seenBeforeChange.first == false)  // sent while the old state was still there

        let observation = await StoreModel(store: store)
        #expect(observation.state == model.state)
        #expect(observation.pendingPurchases == model.pendingPurchases)
        #expect(observation.canMakePayments == model.canMakePayments)
        #expect(observation.stateSource == model.stateSource)
    }

    @Test("a refund from the store reaches the model by itself, as an event")
    func eventUpdatesModel() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let model = await ObservableStoreModel(store: store)
        let premium = try #require(try await store.purchase(Shop.premium).transaction)
        try await waitForChanges(of: model) { $0.isEntitled("premium") }
        await harness.backend.refund(premium.transactionId)
        try await waitForChanges(of: model) { !$0.isEntitled("premium") }
        #expect(model.state.nonConsumables.isEmpty)
        #expect(model.lastEvent != nil)
    }

    @Test("failures land in lastError and the call answers nil")
    func failures() async throws {
        let harness = Harness()
        let model = await ObservableStoreModel(store: try await harness.launch())
        #expect(await model.spend(5, of: "coins", id: "hat") == nil)
        #expect(model.lastError?.code == .insufficientBalance)
        await harness.backend.failRestore(times: 1)
        #expect(await model.restore() == nil)
        #expect(await model.restore() == 0)
    }
}

/// Waits, change by change (`objectWillChange`), until `done` holds for the model; the 10-second limit only keeps a
/// broken test from hanging.
@MainActor
func waitForChanges(of model: ObservableStoreModel,
                    until done: @escaping @MainActor (ObservableStoreModel) -> Bool) async throws {
    if done(model) { return }
    let (changes, continuation) = AsyncStream<Void>.makeStream()
    let watching = model.objectWillChange.sink { continuation.yield() }
    let limit = Task {
        try? await Task.sleep(for: .seconds(10))
        continuation.finish()
    }
    defer {
        limit.cancel()
        watching.cancel()
    }
    // Each element is read after the change it announced was made (the write ends the main actor's turn).
    for await _ in changes where done(model) { return }
    Issue.record("the model never reached the awaited state")
}
