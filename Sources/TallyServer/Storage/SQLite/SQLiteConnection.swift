import CSQLite
import TallySQLite

/// One SQLite database connection with a cache of prepared statements.
///
/// Thread safety: opened with `SQLITE_OPEN_NOMUTEX` (SQLite's own per-connection mutex off), so a
/// connection must never be used by two threads at once. It is not `Sendable`; the only way other threads
/// reach one is through ``LockedConnection``, which runs every use under its lock. SQLite itself must be
/// built thread-safe (`sqlite3_threadsafe() != 0`), which ``open(path:)`` checks, so that separate
/// connections may run on separate threads.
final class SQLiteConnection {
    /// The connection handle; closed in `deinit` after the cached statements are finalized.
    let handle: OpaquePointer
    /// The database file, for messages.
    let path: String
    /// Prepared statements by SQL text, prepared once and reset after every use.
    private var statements: [String: SQLiteStatement] = [:]
    /// Stored payloads this connection already decoded.
    var decodedPayloads = DecodedPayloads()

    /// Opens (creating when absent) the database file at `path`.
    init(path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws(SQLiteError) {
        guard sqlite3_threadsafe() != 0 else {
            throw SQLiteError(code: SQLITE_MISUSE, "this SQLite library was built without thread support "
                + "(SQLITE_THREADSAFE=0); the store needs one built with SQLITE_THREADSAFE=1 or 2")
        }
        var database: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &database, flags, nil)
        guard code == SQLITE_OK, let database else {
            let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(database)
            throw SQLiteError(code: code, "opening the database '\(path)': \(message)")
        }
        sqlite3_extended_result_codes(database, 1)
        self.handle = database
        self.path = path
        let timeout = sqlite3_busy_timeout(database, busyTimeoutMilliseconds)
        guard timeout == SQLITE_OK else {
            throw SQLiteError(code: timeout, "setting the busy timeout of '\(path)': \(errorMessage)")
        }
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// SQLite's message for the last failure on this connection.
    var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// Runs `body` with the cached statement for `sql`, bound to `values`; the statement is reset afterwards.
    func withStatement<T>(_ sql: String, _ values: [SQLiteValue],
                          _ body: (SQLiteStatement) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        let statement: SQLiteStatement
        if let cached = statements[sql] {
            statement = cached
        } else {
            statement = try SQLiteStatement(sql: sql, database: handle)
            statements[sql] = statement
        }
        defer { statement.reset() }
        try statement.bind(values)
        return try body(statement)
    }

    /// Runs a statement that returns no rows (or whose rows are ignored).
    func execute(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        try withStatement(sql, values) { (statement) throws(SQLiteError) in
            while try statement.step() {}
        }
    }

    /// Runs a query and calls `row` for each result row.
    func query(_ sql: String, _ values: [SQLiteValue] = [],
               row: (SQLiteStatement) throws(SQLiteError) -> Void) throws(SQLiteError) {
        try withStatement(sql, values) { (statement) throws(SQLiteError) in
            while try statement.step() { try row(statement) }
        }
    }

    /// The first column of the first row of a query as an integer; nil when there is no row or it is NULL.
    func integer(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int64? {
        try withStatement(sql, values) { (statement) throws(SQLiteError) -> Int64? in
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return statement.int64(0)
        }
    }

    /// The first column of the first row of a query as text; nil when there is no row or it is NULL.
    func text(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> String? {
        try withStatement(sql, values) { (statement) throws(SQLiteError) -> String? in
            guard try statement.step() else { return nil }
            return statement.text(0)
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }
}
