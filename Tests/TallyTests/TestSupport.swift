import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

/// A store and its backend over one data directory, as an app launch sees them.
struct Harness {
    let clock: TestClock
    let backend: InMemoryBackend
    let directory: URL

    init(clock: TestClock = TestClock(), directory: URL = Shop.directory()) {
        self.clock = clock
        self.backend = InMemoryBackend(catalog: Shop.catalog, configuration: Shop.configuration, clock: clock)
        self.directory = directory
    }

    /// Launches a store (a new process would do the same) over the directory.
    func launch(observer: DeliveryObserver? = nil) async throws -> Store {
        try await Store(backend: backend, catalog: Shop.catalog, configuration: Shop.configuration,
                        directory: directory, locale: "en_US", deliveryObserver: observer)
    }

    /// Another device of the same account: same backend, its own empty data directory.
    func otherDevice() -> Harness {
        Harness(clock: clock, backend: backend, directory: Shop.directory())
    }

    private init(clock: TestClock, backend: InMemoryBackend, directory: URL) {
        self.clock = clock
        self.backend = backend
        self.directory = directory
    }
}

/// Reads `stream` until `done` holds for an event, returning every event read. The 60-second limit only
/// keeps a broken test from hanging; no test depends on timing (10 s was outrun by a loaded 2-core machine
/// running the whole suite beside other builds: every waiting test failed at the same instant).
func collect(_ stream: AsyncStream<StoreEvent>,
             until done: @escaping @Sendable (StoreEvent) -> Bool) async throws -> [StoreEvent] {
    try await withThrowingTaskGroup(of: [StoreEvent]?.self) { group in
        group.addTask {
            var seen: [StoreEvent] = []
            for await event in stream {
                seen.append(event)
                if done(event) { return seen }
            }
            return seen
        }
        group.addTask {
            try await Task.sleep(for: .seconds(60))
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return try #require(first, "the awaited event never came")
    }
}

extension StoreEvent {
    /// A short name for order assertions.
    var name: String {
        switch self {
        case .purchasing: "purchasing"
        case .purchased: "purchased"
        case .pending: "pending"
        case .cancelled: "cancelled"
        case .failed: "failed"
        case .restored: "restored"
        case .revoked: "revoked"
        case .renewed: "renewed"
        case .expired: "expired"
        case .balanceChanged: "balanceChanged"
        case .billingRetry: "billingRetry"
        case .gracePeriod: "gracePeriod"
        case .entitlementsChanged: "entitlementsChanged"
        case .changeScheduled: "changeScheduled"
        case .changeCancelled: "changeCancelled"
        case .declined: "declined"
        case .serverRefused: "serverRefused"
        case .customerSwitched: "customerSwitched"
        case .offeringsChanged: "offeringsChanged"
        }
    }
}

extension Store {
    /// Subscribes and lets the stream go at once, as an app that subscribed at launch: the events emitted before
    /// (none, right after launch) are replayed to every later subscriber, the events after reach only the
    /// subscribers of the moment. For tests that subscribe later and read only what follows.
    nonisolated func attachFirstSubscriber() {
        _ = events()
    }
}

extension PurchaseOutcome {
    /// The transaction when purchased.
    var transaction: StoreTransaction? {
        if case .purchased(let transaction) = self { transaction } else { nil }
    }
}
