import Foundation
import TallySQLite
import TallyCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sandbox kept in a directory as the SQLite database `sandbox.sqlite` (WAL mode): one row for the store-wide
/// state and rows per account, transaction, subscription chain, unfinished delivery and event, so a change
/// reads and writes only what it touches. Several processes may use one directory at once: changes are
/// serialized by a lock file and each is one SQLite transaction. A directory holding the earlier `sandbox.json`
/// is migrated on first open (the file is kept as `sandbox.json.migrated`). A damaged state is reported,
/// never replaced.
public struct SandboxDirectory: Sendable {
    /// The directory.
    public var url: URL

    /// The database, `<directory>/sandbox.sqlite`.
    public var databaseFile: URL { url.appendingPathComponent("sandbox.sqlite") }
    /// The state file: the database, ``databaseFile``.
    public var stateFile: URL { databaseFile }
    /// The state file of earlier versions, `<directory>/sandbox.json`, migrated on first open.
    public var legacyStateFile: URL { url.appendingPathComponent("sandbox.json") }
    /// Where a migrated `sandbox.json` is kept, `<directory>/sandbox.json.migrated`.
    public var migratedStateFile: URL { url.appendingPathComponent("sandbox.json.migrated") }

    /// Whether the directory holds a sandbox (the database, or a `sandbox.json` still to migrate).
    public var holdsSandbox: Bool {
        FileManager.default.fileExists(atPath: databaseFile.path)
            || FileManager.default.fileExists(atPath: legacyStateFile.path)
    }

    /// A sandbox directory at `url` (created by ``create(catalog:configuration:start:)`` when missing).
    public init(url: URL) {
        self.url = url
    }

    /// Creates a new sandbox and saves it; refuses when the directory already holds one. `source` names the files
    /// the catalog and configuration were read from (kept for ``Sandbox/reload(catalog:configuration:source:)``).
    public func create(catalog: Catalog, configuration: AppConfiguration, start: Date,
                       source: SandboxCatalogSource? = nil) throws(SandboxError) -> Sandbox {
        if holdsSandbox { throw alreadyThere() }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw SandboxError(.io, "cannot create the directory \(url.path): \(error.localizedDescription)")
        }
        let sandbox = Sandbox(catalog: catalog, configuration: configuration, start: start, source: source)
        try Self.typed {
            try withLock { () throws(SandboxError) in
                if holdsSandbox { throw alreadyThere() }
                try install(sandbox)
            }
        }
        return sandbox
    }

    /// Reads the whole saved sandbox, its whole event log included.
    public func load() throws(SandboxError) -> Sandbox {
        let database = try openDatabase()
        return try Self.typed {
            try database.transaction(writing: false) {
                var sandbox = try database.readForChange(accounts: nil)
                sandbox.events = try database.readEvents()
                sandbox.eventBase = 0
                return sandbox
            }
        }
    }

    /// Reads the store-wide state and one account's records, with that account's events when `events` is
    /// true: everything `tally sandbox state` or `history` shows of an account, without reading the others.
    public func load(account: String, events: Bool = true) throws(SandboxError) -> Sandbox {
        let database = try openDatabase()
        return try Self.typed {
            try database.transaction(writing: false) {
                var sandbox = try database.readForChange(accounts: [account])
                if events { sandbox.events = try database.readEvents(account: account) }
                return sandbox
            }
        }
    }

    /// Replaces the saved sandbox with `sandbox`, whole, in one transaction.
    public func save(_ sandbox: Sandbox) throws(SandboxError) {
        try Self.typed {
            try withLock { () throws(SandboxError) in
                guard holdsSandbox else { try install(sandbox); return }
                let database = try openDatabase()
                try Self.typed { try database.transaction(writing: true) { try database.saveWhole(sandbox) } }
            }
        }
    }

    /// Opens the database, migrating a `sandbox.json` first when that is all the directory holds.
    func openDatabase() throws(SandboxError) -> SandboxDatabase {
        if !FileManager.default.fileExists(atPath: databaseFile.path) {
            guard FileManager.default.fileExists(atPath: legacyStateFile.path) else {
                throw SandboxError(.noState, "no sandbox in \(url.path) (\(databaseFile.path) is missing): run 'tally sandbox init' first")
            }
            try migrateLegacyState()
        }
        let database: SandboxDatabase
        do {
            database = try SandboxDatabase(path: databaseFile.path)
        } catch {
            throw error.sandboxError(path: databaseFile.path)
        }
        try database.checkFormat()
        return database
    }

    /// Writes `sandbox` into a new database beside the final one and renames it into place, so the database
    /// appears whole or not at all. Under the caller's lock.
    func install(_ sandbox: Sandbox) throws(SandboxError) {
        let temporary = databaseFile.path + ".tmp-\(UUID().uuidString)"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(temporary + suffix) } }
        do {
            let database = try SandboxDatabase(path: temporary, create: true)
            try database.createSchema()
            try Self.typed { try database.transaction(writing: true) { try database.saveWhole(sandbox) } }
        } catch let error as SQLiteError {
            throw error.sandboxError(path: temporary)
        } catch {
            throw Self.sandboxError(error)
        }
        guard rename(temporary, databaseFile.path) == 0 else {
            throw SandboxError(.io, "cannot rename \(temporary) to \(databaseFile.path): \(String(cString: strerror(errno)))")
        }
        let folder = open(url.path, O_RDONLY)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    private func alreadyThere() -> SandboxError {
        SandboxError(.stateExists, "\(url.path) already holds a sandbox: use that sandbox, or run 'tally sandbox init' in another directory")
    }

    /// Runs `body`, passing a ``SandboxError`` through and reporting anything else as one.
    static func typed<T>(_ body: () throws -> T) throws(SandboxError) -> T {
        do { return try body() } catch { throw sandboxError(error) }
    }

    static func sandboxError(_ error: Error) -> SandboxError {
        switch error {
        case let error as SandboxError: error
        case let error as SQLiteError: SandboxError(.io, error.message)
        default: SandboxError(.io, "\(error)")
        }
    }
}
