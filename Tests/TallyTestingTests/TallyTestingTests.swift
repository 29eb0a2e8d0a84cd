import Foundation
import Tally
import TallySandbox
import TallySandboxTesting
import TallyTesting
import Testing

/// TallyTesting and TallySandboxTesting as an app's own tests use them: through their public API only, with the
/// Market example's catalog and `tally.json`.
struct TallyTestingTests {
    static let market = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Market")

    static func catalog() throws -> (Catalog, AppConfiguration) {
        let storeKit = market.appendingPathComponent("Market.storekit")
        let json = market.appendingPathComponent("tally.json")
        return (try Catalog(storeKitData: Data(contentsOf: storeKit), fileName: storeKit.path),
                try AppConfiguration(jsonData: Data(contentsOf: json), fileName: json.path))
    }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tally-testing-\(UUID().uuidString)")
    }

    @Test func theTestClockMovesOnlyWhenTold() {
        let clock = TestClock()
        #expect(clock.now == TestClock.defaultStart)
        clock.advance(by: 90)
        #expect(clock.now == TestClock.defaultStart.addingTimeInterval(90))
        clock.advance(days: 2)
        #expect(clock.function() == TestClock.defaultStart.addingTimeInterval(90 + 2 * 86_400))
        let date = Date(timeIntervalSince1970: 2_000_000_000)
        clock.set(date)
        #expect(clock.storeClock.now() == date)
    }

    @Test func anInMemoryPurchaseEntitlesAndItsRefundTakesItBack() async throws {
        let (catalog, configuration) = try Self.catalog()
        let backend = InMemoryBackend(catalog: catalog, configuration: configuration)
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Store(backend: backend, catalog: catalog, configuration: configuration,
                                    directory: directory)
        #expect(await !store.isEntitled("premium"))
        guard case .purchased(let transaction) = try await store.purchase("market.premium") else {
            Issue.record("the purchase did not complete")
            return
        }
        #expect(await store.isEntitled("premium"))
        #expect(await backend.unfinishedIds.isEmpty, "the engine finished the transaction after writing it")

        let events = store.events()
        await backend.refund(transaction.transactionId)
        // The refund reaches the store through the backend's transaction updates; 60 s only keeps a broken test
        // from hanging.
        let revoked = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await event in events { if case .revoked = event { return true } }
                return false
            }
            group.addTask {
                try await Task.sleep(for: .seconds(60))
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(revoked, "the refund was never announced")
        #expect(await !store.isEntitled("premium"))
    }

    @Test func aSubscriptionExpiresWhenTheTestClockPassesItsEnd() async throws {
        let (catalog, configuration) = try Self.catalog()
        let clock = TestClock()
        let backend = InMemoryBackend(catalog: catalog, configuration: configuration, clock: clock)
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Store(backend: backend, catalog: catalog, configuration: configuration,
                                    directory: directory)
        _ = try await store.purchase("market.pro.monthly")
        #expect(await store.isEntitled("pro"))
        let expires = try #require(await backend.transactions.last?.expiresDate)
        clock.set(expires.addingTimeInterval(1))
        await store.refresh()
        #expect(await !store.isEntitled("pro"), "expired by the clock alone, without waiting")
    }

    @Test func anUnsignedTransactionGrantsNothing() async throws {
        let (catalog, configuration) = try Self.catalog()
        let backend = InMemoryBackend(catalog: catalog, configuration: configuration)
        let signed = backend.signatures.sign(StoreTransaction(transactionId: "1", productId: "market.premium",
                                                              purchaseDate: Date(), type: .nonConsumable))
        #expect(try backend.signatures.verifiedTransaction(signed).transactionId == "1")
        #expect(throws: StoreError.self) { try backend.signatures.verifiedTransaction("forged.1") }
    }

    @Test func aTemporarySandboxSellsSignedTransactionsToTheEngine() async throws {
        let sandbox = try TemporarySandbox(
            storeKitFile: Self.market.appendingPathComponent("Market.storekit"),
            appConfigurationFile: Self.market.appendingPathComponent("tally.json"))
        let directory = sandbox.directory
        let store = try await Store(backend: sandbox.backend(), catalog: sandbox.catalog,
                                    configuration: sandbox.configuration, directory: sandbox.appDirectory())
        _ = try await store.purchase("market.coins.10")
        #expect(await store.balance("coins") == 10)
        #expect(try sandbox.load().transactions().map(\.productId) == ["market.coins.10"])
        #expect(try sandbox.load().pendingPurchases().isEmpty)

        try sandbox.update { $0.set(.askToBuy, enabled: true) }
        guard case .pending = try await store.purchase("market.coins.100") else {
            Issue.record("Ask to Buy did not make the purchase pending")
            return
        }
        #expect(try sandbox.load().pendingPurchases().map(\.productId) == ["market.coins.100"])
        #expect(FileManager.default.fileExists(atPath: directory.path))
        sandbox.remove()
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }
}
