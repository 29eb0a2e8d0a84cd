import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

@Suite("Store damaged customer file")
struct StoreCorruptionTests {
    @Test("a corrupt customer.json is reported, moved aside and rebuilt from a restore")
    func corruptSnapshot() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        _ = try await store.purchase(Shop.premium)
        await store.close()
        // The next launch folds the journal into customer.json; damage that.
        try await harness.launch().close()
        let snapshot = harness.directory.appendingPathComponent("customer.json")
        let original = try Data(contentsOf: snapshot)
        try Data(original.prefix(original.count / 2)).write(to: snapshot)

        let relaunched = try await harness.launch()
        let diagnostics = await relaunched.diagnostics
        #expect(diagnostics.map(\.kind) == [.corruptCustomerFile])
        let moved = try #require(diagnostics.first?.movedTo)
        #expect(moved.lastPathComponent.hasPrefix("customer.json.corrupt-"))
        #expect(try Data(contentsOf: moved) == Data(original.prefix(original.count / 2)))
        #expect(await relaunched.history.transactions.map(\.productId) == [Shop.premium])
        #expect(await relaunched.isEntitled("premium"))
        #expect(try await collect(relaunched.events()) { $0.name == "restored" } == [.restored(count: 1)])
        #expect(await harness.backend.restoreCount == 1)
    }

    @Test("a write cut short (torn last journal line) is reported; everything before it is kept, no restore")
    func tornJournalTail() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        _ = try await store.purchase(Shop.coins)
        _ = try await store.purchase(Shop.premium)
        await store.close()
        let journal = harness.directory.appendingPathComponent("customer.journal")
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("1a2b3c4d {\"transaction\":{\"_0\":{\"transactionId\":\"77".utf8))
        try handle.close()

        let relaunched = try await harness.launch()
        #expect(await relaunched.diagnostics.map(\.kind) == [.tornJournalTail])
        #expect(await relaunched.history.transactions.map(\.productId) == [Shop.coins, Shop.premium])
        #expect(await relaunched.balance("coins") == 10)
        #expect(await harness.backend.restoreCount == 0)
    }

    @Test("when the rebuild cannot reach the store, it is reported and retried at the next launch")
    func rebuildRetried() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        _ = try await store.purchase(Shop.premium)
        await store.close()
        try await harness.launch().close()
        try Data("not json".utf8).write(to: harness.directory.appendingPathComponent("customer.json"))
        await harness.backend.failRestore(times: 1)

        let offline = try await harness.launch()
        #expect(await offline.diagnostics.map(\.kind) == [.corruptCustomerFile, .restoreFailed])
        #expect(await offline.isEntitled("premium") == false)
        await offline.close()

        let online = try await harness.launch()
        #expect(await online.diagnostics.isEmpty)
        #expect(await online.isEntitled("premium"))
    }

    @Test("a customer file from a newer format is refused, not overwritten")
    func newerFormat() async throws {
        let harness = Harness()
        try FileManager.default.createDirectory(at: harness.directory, withIntermediateDirectories: true)
        let snapshot = harness.directory.appendingPathComponent("customer.json")
        let newer = Data(#"{"formatVersion":99,"transactions":{},"renewalInfos":{},"spends":[],"finished":[],"pending":{},"needsRestore":false}"#.utf8)
        try newer.write(to: snapshot)
        let error = await #expect(throws: StoreError.self) { try await harness.launch() }
        #expect(error?.code == .storage)
        #expect(try Data(contentsOf: snapshot) == newer)
    }
}
