import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

/// The events of the launch (unfinished transactions delivered while the store is created) reach every
/// subscriber, whenever it subscribes: `events()`, `onEvent` and `StoreModel` alike.
@Suite("Store events: the launch replayed to every subscriber", .timeLimit(.minutes(1)))
struct StoreEventReplayTests {
    /// A store launched with a purchase from another device waiting unfinished.
    private func launchWithUnfinished() async throws -> (Harness, Store, StoreTransaction) {
        let harness = Harness()
        let waiting = await harness.backend.buyElsewhere(Shop.premium)
        let store = try await harness.launch()
        #expect(await harness.backend.unfinishedIds.isEmpty)
        return (harness, store, waiting)
    }

    @Test("two events() subscribers both get the launch's purchased event, then the live ones")
    func everyStreamGetsTheLaunch() async throws {
        let (harness, store, waiting) = try await launchWithUnfinished()
        let first = store.events()
        let launch = try await collect(first) { $0.name == "purchased" }
        #expect(launch.last == .purchased(waiting, context: nil))
        let second = store.events()
        let replayed = try await collect(second) { $0.name == "purchased" }
        #expect(replayed.last == .purchased(waiting, context: nil))

        let coins = await harness.backend.buyElsewhere(Shop.coins)
        for stream in [first, second] {
            let live = try await collect(stream) { $0.name == "purchased" }
            #expect(live.last == .purchased(coins, context: nil))
        }
    }

    @MainActor
    @Test("onEvent callbacks and a StoreModel made after a first subscriber get the launch's events too")
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)  // StoreModel
    func callbacksAndModelGetTheLaunch() async throws {
        let (_, store, waiting) = try await launchWithUnfinished()
        let first = store.events()
        _ = try await collect(first) { $0.name == "purchased" }

        let (seen, done) = AsyncStream<StoreEvent>.makeStream()
        let subscription = store.onEvent { done.yield($0) }
        defer { subscription.cancel() }
        let called = try await collect(seen) { $0.name == "purchased" }
        #expect(called.last == .purchased(waiting, context: nil))

        let model = await StoreModel(store: store)
        for _ in 0..<1000 where model.lastEvent == nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(model.isEntitled("premium"))
        #expect(model.lastEvent != nil)
    }

    @Test("events emitted after the launch but before anyone subscribed are replayed too")
    func eventsBeforeTheFirstSubscriber() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        _ = try await store.purchase(Shop.coins)
        let events = store.events()
        let seen = try await collect(events) { $0.name == "balanceChanged" }
        #expect(seen.map(\.name) == ["purchasing", "purchased", "balanceChanged"])
    }

    @Test("past 256 events before anyone subscribed, the first 256 are replayed and the overflow reported once")
    func replayOverflow() async throws {
        let store = try await Harness().launch()
        for _ in 0..<100 { _ = try await store.purchase(Shop.coins) }  // purchasing, purchased, balanceChanged
        #expect(await store.diagnostics.map(\.kind) == [.eventsDropped])
        let events = store.events()
        var replayed: [StoreEvent] = []
        for await event in events {
            replayed.append(event)
            if replayed.count == 256 { break }
        }
        #expect(replayed.first?.name == "purchasing")
        #expect(replayed[254] == .balanceChanged(currency: "coins", balance: 850))  // 85 purchases × 3 events
        #expect(replayed.last?.name == "purchasing")                                // the 86th's first
        #expect(await store.balance("coins") == 1000)
    }
}
