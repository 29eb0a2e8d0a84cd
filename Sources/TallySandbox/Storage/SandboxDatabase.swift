import CSQLite
import TallySQLite

/// One SQLite connection to a sandbox's `sandbox.sqlite`, with a cache of prepared statements. Every statement
/// is prepared; values are bound, never spliced into SQL.
///
/// `@unchecked Sendable` because it is never used by two threads at once, though it may move between them: a
/// ``SandboxDirectory`` call opens its own and drops it before returning, and ``SandboxStore`` touches its
/// one only inside its `Mutex`. The connection is opened `SQLITE_OPEN_NOMUTEX`, which allows exactly that
/// (SQLite's multi-thread mode: one connection, one thread at a time).
final class SandboxDatabase: @unchecked Sendable {
    let handle: OpaquePointer
    /// The database file, for messages.
    let path: String
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens the database at `path`; `create` makes the file when absent.
    init(path: String, create: Bool = false) throws(SQLiteError) {
        var database: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0)
        let code = sqlite3_open_v2(path, &database, flags, nil)
        guard code == SQLITE_OK, let database else {
            let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(database)
            throw SQLiteError(code: code, "opening \(path): \(message)")
        }
        sqlite3_extended_result_codes(database, 1)
        handle = database
        self.path = path
        sqlite3_busy_timeout(database, 30_000)
        // WAL: readers (a market polling) never block the writer; NORMAL: a commit survives the process
        // being killed (the WAL is written before COMMIT returns), not a power loss — right for a test store.
        try execute("PRAGMA synchronous = NORMAL")
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs `body` with the cached statement for `sql` bound to `values`; the statement is reset afterwards.
    func withStatement<T>(_ sql: String, _ values: [SQLiteValue],
                          _ body: (SQLiteStatement) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(values)
        return try body(statement)
    }

    /// The cached prepared statement for `sql` (prepared on first use); the caller resets it after use.
    func prepared(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let statement = try SQLiteStatement(sql: sql, database: handle)
        statements[sql] = statement
        return statement
    }

    /// Runs a statement, ignoring any rows.
    func execute(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        try withStatement(sql, values) { (statement) throws(SQLiteError) in
            while try statement.step() {}
        }
    }

    /// Runs a query, calling `row` for each result row.
    func query(_ sql: String, _ values: [SQLiteValue] = [],
               row: (SQLiteStatement) throws(SQLiteError) -> Void) throws(SQLiteError) {
        try withStatement(sql, values) { (statement) throws(SQLiteError) in
            while try statement.step() { try row(statement) }
        }
    }

    /// The first column of the first row as an integer; nil when there is no row.
    func integer(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int64? {
        try withStatement(sql, values) { (statement) throws(SQLiteError) -> Int64? in
            try statement.step() ? statement.int64(0) : nil
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

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
