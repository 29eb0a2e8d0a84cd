import CSQLite

/// One prepared statement on an SQLite connection: bind by index, step, read columns, reset.
///
/// Not `Sendable`: a statement is used only by the thread that holds its connection's lock.
public final class SQLiteStatement {
    /// The statement handle; finalized in `deinit`.
    public let handle: OpaquePointer
    /// The connection handle, for `sqlite3_errmsg`.
    private let database: OpaquePointer
    /// The SQL text, for messages.
    public let sql: String

    /// Prepares `sql` (exactly one statement) on `database`.
    public init(sql: String, database: OpaquePointer) throws(SQLiteError) {
        var statement: OpaquePointer?
        // `tail` points into the C string, so it is read while that string is alive (inside withCString).
        let (code, hasMore) = sql.withCString { text -> (Int32, Bool) in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(database, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            return (code, tail.map { $0.pointee != 0 } ?? false)
        }
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(code: code, "preparing `\(sql)`: \(String(cString: sqlite3_errmsg(database)))")
        }
        if hasMore {
            sqlite3_finalize(statement)
            throw SQLiteError(code: SQLITE_MISUSE, "preparing `\(sql)`: only one SQL statement may be prepared at a time")
        }
        self.handle = statement
        self.database = database
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to parameters 1, 2, … in order.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        guard values.count == Int(sqlite3_bind_parameter_count(handle)) else {
            throw SQLiteError(code: SQLITE_RANGE, "`\(sql)` takes \(sqlite3_bind_parameter_count(handle)) "
                + "parameters, \(values.count) were given")
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value at a 1-based parameter index.
    public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let number):
            code = sqlite3_bind_int64(handle, index, number)
        case .text(let text):
            var text = text
            code = text.withUTF8 { bytes in
                // An empty buffer may have no base address; SQLite would bind NULL for a nil pointer.
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_text(handle, index, "", 0, tally_sqlite_transient())
                }
                return sqlite3_bind_text64(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                           sqlite3_uint64(bytes.count), tally_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
        try check(code, "binding parameter \(index)")
    }

    /// Advances one row: true when a row is available, false when the statement is done.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw failure(code, "running")
        }
    }

    /// Resets the statement and clears its bindings so the cache can hand it out again.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Whether column `index` (0-based) of the current row is NULL.
    public func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` (0-based) of the current row as an integer.
    public func int64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Column `index` (0-based) of the current row as text, read with its exact byte length; nil for NULL.
    public func text(_ index: Int32) -> String? {
        guard !isNull(index) else { return nil }
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` of a NOT NULL text column; a NULL there means the file was altered, reported as corruption.
    public func requiredText(_ index: Int32) throws(SQLiteError) -> String {
        guard let value = text(index) else {
            throw SQLiteError(code: SQLITE_CORRUPT, "column \(index) of `\(sql)` is NULL; the database was altered")
        }
        return value
    }

    private func check(_ code: Int32, _ action: String) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw failure(code, action) }
    }

    private func failure(_ code: Int32, _ action: String) -> SQLiteError {
        let extended = sqlite3_extended_errcode(database)
        return SQLiteError(code: extended != 0 ? extended : code,
                           "\(action) `\(sql)`: \(String(cString: sqlite3_errmsg(database)))")
    }
}
