import Foundation
import Synchronization
import TallySQLite
@testable import TallySQLiteStore
@testable import TallyServer
@testable import TallyStorage
import Testing

private typealias F = StoreFixtures

/// Each write of a commit group runs in its own savepoint, whose undo pages (SQLite's statement journal) would
/// spill to a temporary file past 64 KiB: a 4-byte and a page-sized `pwrite` for every page the write touched,
/// five times the WAL's own writes in a profile of the post benchmark. The store keeps them in memory.
@Suite("SQLite store: no temporary files")
struct StoreTemporaryFileTests {
    #if os(Linux)
    @Test func aGroupOfLargeWritesOpensNoTemporaryFile() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.open()
        // Enough rows that the indexes span many pages: a write's random ids then touch many existing pages.
        for batch in 0..<20 {
            let transactions = (0..<100).map { _ in F.coins(UUID().uuidString) }
            _ = try store.record(transactions, for: "seed-\(batch)", policy: .transfer, at: F.start)
        }
        let openAtCommit = Mutex<[String]?>(nil)
        let results = try await OnThread.run {
            let gate = WriteGate(store: store, beforeCommit: { size in
                guard size > 1 else { return }  // the gate's own commit
                openAtCommit.withLock { $0 = Self.openTemporaryFiles() }
            })
            for writer in 0..<6 {
                gate.start("w\(writer)") {
                    let transactions = (0..<60).map { _ in F.coins(UUID().uuidString) }
                    _ = try store.record(transactions, for: "w\(writer)", policy: .transfer, at: F.start)
                }
            }
            gate.open()
            return gate.results
        }
        #expect(results.failed.isEmpty)
        let found = try #require(openAtCommit.withLock { $0 }, "the group of six did not commit together")
        #expect(found.isEmpty, "temporary files open inside the group's transaction: \(found)")
        #expect(try store.customer("w5").transactions.count == 60)
    }

    /// SQLite's temporary files (named `etilqs_…`, unlinked at once) this process holds open.
    private static func openTemporaryFiles() -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { descriptor in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
            return target.flatMap { $0.contains("etilqs_") ? $0 : nil }
        }
    }
    #endif
}
