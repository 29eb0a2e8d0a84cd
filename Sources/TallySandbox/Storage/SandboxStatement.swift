import CSQLite

/// One prepared statement of a ``SandboxDatabase``: bind by index, step, read columns, reset.
///
/// Not `Sendable`: used only by the holder of its connection.
final class SandboxStatement {
    /// The statement handle; finalized in `deinit`.
    let handle: OpaquePointer
    private let database: OpaquePointer
    /// The SQL text, for messages.
    let sql: String

    /// Prepares `sql` (exactly one statement) on `database`.
    init(sql: String, database: OpaquePointer) throws(SandboxSQLError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SandboxSQLError(code: code, "preparing `\(sql)`: \(String(cString: sqlite3_errmsg(database)))")
        }
        self.handle = statement
        self.database = database
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to parameters 1, 2, … in order.
    func bind(_ values: [SandboxSQLValue]) throws(SandboxSQLError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .integer(let number):
                code = sqlite3_bind_int64(handle, index, number)
            case .text(let text):
                var text = text
                code = text.withUTF8 { bytes in
                    guard let base = bytes.baseAddress, !bytes.isEmpty else {
                        return sqlite3_bind_text(handle, index, "", 0, tally_sqlite_transient())
                    }
                    return sqlite3_bind_text64(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                               sqlite3_uint64(bytes.count), tally_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
            guard code == SQLITE_OK else { throw failure(code, "binding parameter \(index) of") }
        }
    }

    /// Advances one row: true when a row is available, false when the statement is done.
    func step() throws(SandboxSQLError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw failure(code, "running")
        }
    }

    /// Resets the statement and clears its bindings for the next use.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Column `index` (0-based) of the current row as an integer.
    func int64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Column `index` of the current row as text; a NULL there means the file was altered (corruption).
    func text(_ index: Int32) throws(SandboxSQLError) -> String {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else {
            throw SandboxSQLError(code: SQLITE_CORRUPT, "column \(index) of `\(sql)` is NULL; the database was altered")
        }
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private func failure(_ code: Int32, _ action: String) -> SandboxSQLError {
        let extended = sqlite3_extended_errcode(database)
        return SandboxSQLError(code: extended != 0 ? extended : code,
                               "\(action) `\(sql)`: \(String(cString: sqlite3_errmsg(database)))")
    }
}
