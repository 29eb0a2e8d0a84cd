import Foundation
import Testing
import TallyCore
@testable import TallySandbox

@Suite("Sandbox storage: sandbox.sqlite, migration from sandbox.json, reads scoped to an account")
struct StorageTests {
    /// A sandbox with two accounts, a subscription that renewed, a refund and a pending purchase.
    private static func busySandbox() throws -> Sandbox {
        var sandbox = Market.sandbox()
        _ = sandbox.purchase(Market.proMonthly, account: "ann")
        _ = sandbox.purchase(Market.coins, account: "ann", quantity: 3)
        let premium = try #require(sandbox.purchase(Market.premium, account: "bob").transaction)
        sandbox.advance(by: try SandboxDuration(parsing: "2M"))
        _ = try sandbox.refund(transactionId: premium.transactionId)
        sandbox.set(.askToBuy, enabled: true, account: "kid")
        _ = sandbox.purchase(Market.removeAds, account: "kid")
        return sandbox
    }

    @Test("a directory holding sandbox.json is migrated on first open, losing nothing, once")
    func migratesLegacyState() throws {
        let scratch = try ScratchDirectory()
        let directory = SandboxDirectory(url: scratch.url)
        let legacy = try Self.busySandbox()
        // Exactly what earlier versions' SandboxDirectory.save wrote.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(legacy).write(to: directory.legacyStateFile)
        #expect(directory.holdsSandbox)

        let migrated = try directory.load()
        for account in ["ann", "bob", "kid", "default"] {
            #expect(migrated.transactions(account: account) == legacy.transactions(account: account))
            #expect(migrated.renewalInfos(account: account) == legacy.renewalInfos(account: account))
            #expect(migrated.state(account: account) == legacy.state(account: account))
            #expect(migrated.unfinished(account: account) == legacy.unfinished(account: account))
        }
        #expect(migrated.events == legacy.events)
        #expect(migrated.pendingPurchases() == legacy.pendingPurchases())
        #expect(migrated.now == legacy.now)
        #expect(migrated.accountNames == legacy.accountNames)
        #expect(!FileManager.default.fileExists(atPath: directory.legacyStateFile.path))
        #expect(FileManager.default.fileExists(atPath: directory.migratedStateFile.path))
        #expect(FileManager.default.fileExists(atPath: directory.databaseFile.path))

        // The next change continues the log and the id counters where sandbox.json left them.
        let bought = try directory.update { sandbox in sandbox.purchase(Market.coins, account: "ann").transaction }
        #expect(bought?.transactionId == String(legacy.nextTransactionNumber))
        let reloaded = try directory.load()
        #expect(reloaded.events.count == legacy.events.count + 1)
        #expect(reloaded.events.map(\.sequence) == Array(1...(legacy.events.count + 1)))
    }

    @Test("a damaged sandbox.json is reported by name and left as it is; no database is made")
    func damagedLegacyState() throws {
        let scratch = try ScratchDirectory()
        let directory = SandboxDirectory(url: scratch.url)
        try Data("{\"half\": ".utf8).write(to: directory.legacyStateFile)
        do {
            _ = try directory.load()
            Issue.record("a damaged sandbox.json must not load")
        } catch {
            #expect(error.code == .corruptState)
            #expect(error.message.contains(directory.legacyStateFile.path))
        }
        #expect(try Data(contentsOf: directory.legacyStateFile) == Data("{\"half\": ".utf8))
        #expect(!FileManager.default.fileExists(atPath: directory.databaseFile.path))
    }

    @Test("reads and changes scoped to one account never read another account's rows")
    func scopedReadsTouchOneAccount() throws {
        let scratch = try ScratchDirectory()
        let directory = SandboxDirectory(url: scratch.url)
        try directory.save(try Self.busySandbox())
        // Make every row of the other accounts unreadable: reading any of them fails loudly.
        let database = try SandboxDatabase(path: directory.databaseFile.path)
        for table in ["UPDATE transactions SET body = 'damaged' WHERE account != ?",
                      "UPDATE chains SET body = 'damaged' WHERE account != ?",
                      "UPDATE accounts SET body = 'damaged' WHERE name != ?"] {
            try database.execute(table, [.text("ann")])
        }
        #expect(database.changes > 0)

        let store = SandboxStore(directory: directory)
        let ann = try store.read(account: "ann")
        #expect(ann.state(account: "ann").subscriptions.count == 1)
        let bought = try store.update(account: "ann") { $0.purchase(Market.coins, account: "ann").transaction }
        #expect(bought != nil)
        #expect(try directory.load(account: "ann").transactions(account: "ann").last == bought)
        #expect(try store.read(account: "ann").transactions(account: "ann").last == bought)
        // A change that strays to an unread account is refused and saves nothing.
        let before = try #require(store.stamp())
        #expect(throws: SandboxError.self) {
            try store.update(account: "ann") { _ = $0.purchase(Market.coins, account: "zed") }
        }
        #expect(store.stamp() == before)
        // The damage is real: reading every account fails.
        #expect(throws: SandboxError.self) { try directory.load() }
    }

    @Test("a kept account is read again when another writer changed the store")
    func storeSeesOtherWriters() throws {
        let scratch = try ScratchDirectory()
        let directory = SandboxDirectory(url: scratch.url)
        _ = try directory.create(catalog: Market.catalog(), configuration: Market.configuration, start: Market.start)
        let store = SandboxStore(directory: directory)
        #expect(try store.read(account: "default").transactions().isEmpty)
        let bought = try directory.update(accounts: ["default"]) { $0.purchase(Market.premium).transaction }
        #expect(try store.read(account: "default").transactions() == [try #require(bought)])
        try store.update(account: "default") { $0.finish(transactionId: bought!.transactionId) }
        _ = try directory.update { $0.advance(by: try SandboxDuration(parsing: "1d")) }
        let now = try store.read(account: "default")
        #expect(now.unfinished().isEmpty)
        #expect(now.now == Market.start.addingTimeInterval(86_400))
        let log = try directory.load().events
        #expect(log.map(\.sequence) == Array(1...log.count))
        #expect(log.suffix(3).map(\.kind) == [.purchased, .finished, .clockAdvanced])
    }
}
