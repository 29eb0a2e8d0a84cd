import CSQLite

/// One SQLite connection with a cache of prepared statements: every statement is prepared once, bound to values
/// (never spliced into SQL) and reset after each use. The server's store connections and the sandbox's database
/// are subclasses that add their settings.
///
/// Thread safety: opened with `SQLITE_OPEN_NOMUTEX` (SQLite's own per-connection mutex off), so a connection
/// must never be used by two threads at once; it is not `Sendable`, and a subclass that crosses threads says why
/// that is safe.
open class SQLiteDatabase {
    /// The connection handle; closed in `deinit` after the cached statements are finalized.
    public final let handle: OpaquePointer
    /// The database file, for messages.
    public final let path: String
    /// Prepared statements by SQL text, prepared once and reset after every use.
    @usableFromInline final var statements: [String: SQLiteStatement] = [:]

    /// Opens the database at `path` (`create`: making the file when absent) with extended result codes and a
    /// busy timeout; `describing` names it in the error ("the database '…'").
    public init(path: String, create: Bool, busyTimeoutMilliseconds: Int32, describing name: String) throws(SQLiteError) {
        var database: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0)
        let code = sqlite3_open_v2(path, &database, flags, nil)
        guard code == SQLITE_OK, let database else {
            let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(database)
            throw SQLiteError(code: code, "opening \(name): \(message)")
        }
        sqlite3_extended_result_codes(database, 1)
        self.handle = database
        self.path = path
        let timeout = sqlite3_busy_timeout(database, busyTimeoutMilliseconds)
        guard timeout == SQLITE_OK else {
            throw SQLiteError(code: timeout, "setting the busy timeout of \(name): \(errorMessage)")
        }
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// SQLite's message for the last failure on this connection.
    public final var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// The cached prepared statement for `sql` (prepared on first use); the caller binds it and resets it after use.
    @inlinable
    public final func prepared(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let statement = try SQLiteStatement(sql: sql, database: handle)
        statements[sql] = statement
        return statement
    }

    /// Runs `body` with the cached statement for `sql`, bound to `values`; the statement is reset afterwards.
    @inlinable
    public final func withStatement<T>(_ sql: String, _ values: [SQLiteValue],
                                       _ body: (SQLiteStatement) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(values)
        return try body(statement)
    }

    /// Runs a statement that returns no rows (or whose rows are ignored).
    @inlinable
    public final func execute(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        try withStatement(sql, values) { (statement) throws(SQLiteError) in
            while try statement.step() {}
        }
    }

    /// Runs a query and calls `row` for each result row.
    @inlinable
    public final func query(_ sql: String, _ values: [SQLiteValue] = [],
                            row: (SQLiteStatement) throws(SQLiteError) -> Void) throws(SQLiteError) {
        try withStatement(sql, values) { (statement) throws(SQLiteError) in
            while try statement.step() { try row(statement) }
        }
    }

    /// The first column of the first row of a query as an integer; nil when there is no row or it is NULL.
    @inlinable
    public final func integer(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int64? {
        try withStatement(sql, values) { (statement) throws(SQLiteError) -> Int64? in
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return statement.int64(0)
        }
    }

    /// The first column of the first row of a query as text; nil when there is no row or it is NULL.
    @inlinable
    public final func text(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> String? {
        try withStatement(sql, values) { (statement) throws(SQLiteError) -> String? in
            guard try statement.step() else { return nil }
            return statement.text(0)
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public final var changes: Int { Int(sqlite3_changes(handle)) }
}
