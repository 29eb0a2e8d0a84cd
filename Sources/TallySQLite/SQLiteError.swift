import CSQLite

/// A failed SQLite call: the result code and `sqlite3_errmsg` at the time, with what was being done.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The (extended) result code, such as `SQLITE_BUSY` or `SQLITE_IOERR_WRITE`.
    public var code: Int32
    /// What was being done and SQLite's message.
    public var message: String

    /// Creates an error from a result code and a message.
    public init(code: Int32, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The primary result code (the low byte of an extended code).
    public var primaryCode: Int32 { code & 0xff }

    /// The message.
    public var description: String { message }
}
