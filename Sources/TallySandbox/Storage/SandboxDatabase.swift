import TallyLocking
import TallySQLite

/// One SQLite connection to a sandbox's `sandbox.sqlite`: TallySQLite's ``SQLiteDatabase`` (a cache of prepared
/// statements; values are bound, never spliced into SQL) with the sandbox's settings and transactions.
///
/// `@unchecked Sendable` because it is never used by two threads at once, though it may move between them: a
/// ``SandboxDirectory`` call opens its own and drops it before returning, and ``SandboxStore`` touches its
/// one only inside its `Mutex`. The connection is opened `SQLITE_OPEN_NOMUTEX`, which allows exactly that
/// (SQLite's multi-thread mode: one connection, one thread at a time).
final class SandboxDatabase: SQLiteDatabase, @unchecked Sendable {
    /// Opens the database at `path`; `create` makes the file when absent.
    init(path: String, create: Bool = false) throws(SQLiteError) {
        try super.init(path: path, create: create, busyTimeoutMilliseconds: 30_000, describing: path)
        // WAL: readers (a market polling) never block the writer; NORMAL: a commit survives the process
        // being killed (the WAL is written before COMMIT returns), not a power loss — right for a test store.
        try execute("PRAGMA synchronous = NORMAL")
    }

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE` when it writes, so the write lock is taken at once),
    /// committing when it returns and rolling back when it throws; rethrows what `body` threw, and SQLite's
    /// own failures as ``SandboxError``.
    func transaction<T>(writing: Bool, _ body: () throws -> T) throws -> T {
        do { try execute(writing ? "BEGIN IMMEDIATE" : "BEGIN") } catch { throw error.sandboxError(path: path) }
        let result: T
        do {
            result = try body()
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error.sandboxError(path: path)
        }
        return result
    }

    /// Reads the store row and the named accounts (all when nil) into a sandbox whose log is empty, numbered
    /// after the events saved: what a change starts from. Inside the caller's transaction.
    func readForChange(accounts names: [String]?) throws(SandboxError) -> Sandbox {
        let header = try readHeader()
        var accounts: [String: AccountRecord] = [:]
        let all: [String]
        if let names { all = names } else { all = try accountNames() }
        for name in all {
            if let record = try readAccount(name) { accounts[name] = record }
        }
        return Sandbox(header: header, accounts: accounts, events: [], eventBase: try eventCount())
    }
}
