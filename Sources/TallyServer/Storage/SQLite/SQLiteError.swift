import CSQLite

/// A failed SQLite call: the result code and `sqlite3_errmsg` at the time, with what was being done.
struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The (extended) result code, such as `SQLITE_BUSY` or `SQLITE_IOERR_WRITE`.
    var code: Int32
    /// What was being done and SQLite's message.
    var message: String

    /// Creates an error from a result code and a message.
    init(code: Int32, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The primary result code (the low byte of an extended code).
    var primaryCode: Int32 { code & 0xff }

    /// The message.
    var description: String { message }

    /// The store's reason: `.busy` for a busy or locked database, `.failed` for everything else
    /// (I/O, full disk, corruption, constraint violations).
    var storeReason: CustomerStoreError.Reason {
        switch primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        default: .failed
        }
    }

    /// The store error for this failure; `reason` overrides the mapping (opening and migrating are `.unavailable`).
    func storeError(_ reason: CustomerStoreError.Reason? = nil) -> CustomerStoreError {
        CustomerStoreError(reason ?? storeReason, message, underlying: self)
    }
}
