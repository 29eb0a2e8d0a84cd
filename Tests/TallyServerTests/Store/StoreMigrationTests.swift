import CSQLite
import Foundation
@testable import TallySQLiteStore
@testable import TallyServer
@testable import TallyStorage
import Testing

private typealias F = StoreFixtures

@Suite("SQLite store: opening, migrations and persistence")
struct StoreMigrationTests {
    /// Reads `PRAGMA user_version` and the journal mode through a separate connection.
    private func inspect(_ path: String) throws -> (version: Int64?, journal: String?) {
        let connection = try SQLiteConnection(path: path)
        return (try connection.integer("PRAGMA user_version"), try connection.text("PRAGMA journal_mode"))
    }

    @Test func aFreshFileIsMigratedToTheCurrentVersionInWALMode() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.open()
        let found = try inspect(directory.database)
        #expect(found.version == Int64(StoreSchema.currentVersion))
        #expect(found.journal == "wal")
        _ = store
    }

    @Test func openingAgainKeepsEverything() throws {
        let directory = try TemporaryDirectory()
        var written: CustomerRecord
        do {
            let store = try directory.open()
            _ = try store.record([F.coins("t1"), F.period("p1", original: "p1", month: 0)], for: "u1",
                                 policy: .transfer, at: F.start)
            let spend = F.spend("s1", 7)
            _ = try store.spend(spend, for: "u1")
            _ = try store.record([F.period("p1", original: "p1", month: 0)], for: "u2", policy: .transfer, at: F.day(2))
            written = try store.customer("u1")
        }
        let reopened = try directory.open()
        #expect(try reopened.customer("u1") == written)
        #expect(written.transfers.count == 1)
        #expect(try inspect(directory.database).version == Int64(StoreSchema.currentVersion))
    }

    @Test func aNewerSchemaIsRefused() throws {
        let directory = try TemporaryDirectory()
        do {
            let connection = try SQLiteConnection(path: directory.database)
            try connection.execute("PRAGMA user_version = \(StoreSchema.currentVersion + 1)")
        }
        let error = try #require(throws: CustomerStoreError.self) { try directory.open() }
        #expect(error.reason == .unavailable)
        #expect(error.message.contains("schema version \(StoreSchema.currentVersion + 1), newer than"))
    }

    @Test func aFileThatIsNotADatabaseIsUnavailable() throws {
        let directory = try TemporaryDirectory()
        try Data(String(repeating: "not a database ", count: 100).utf8).write(to: URL(fileURLWithPath: directory.database))
        let error = try #require(throws: CustomerStoreError.self) { try directory.open() }
        #expect(error.reason == .unavailable)
        #expect(error.message.contains(directory.database))
    }

    @Test func aMissingDirectoryIsUnavailable() throws {
        let directory = try TemporaryDirectory()
        let path = (directory.path as NSString).appendingPathComponent("absent/tally.sqlite")
        let error = try #require(throws: CustomerStoreError.self) { try SQLiteCustomerStore(path: path, credits: F.credits) }
        #expect(error.reason == .unavailable)
    }

    @Test func theDirectoryInitialiserCreatesTheDirectory() throws {
        let directory = try TemporaryDirectory()
        let nested = (directory.path as NSString).appendingPathComponent("data/nested")
        let store = try SQLiteCustomerStore(directory: nested, credits: F.credits)
        #expect(store.path == (nested as NSString).appendingPathComponent("tally.sqlite"))
        #expect(FileManager.default.fileExists(atPath: store.path))
    }
}
