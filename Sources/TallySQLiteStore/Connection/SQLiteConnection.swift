import CSQLite
import TallySQLite
import TallyStorage

/// One SQLite database connection of the store: TallySQLite's ``SQLiteDatabase`` (a cache of prepared
/// statements) and the payloads this connection already decoded.
///
/// Thread safety: opened with `SQLITE_OPEN_NOMUTEX` (SQLite's own per-connection mutex off), so a
/// connection must never be used by two threads at once. It is not `Sendable`; the only way other threads
/// reach one is through ``LockedConnection``, which runs every use under its lock. SQLite itself must be
/// built thread-safe (`sqlite3_threadsafe() != 0`), which the initializer checks, so that separate
/// connections may run on separate threads.
final class SQLiteConnection: SQLiteDatabase {
    /// Stored payloads this connection already decoded.
    var decodedPayloads = DecodedPayloads()

    /// Opens (creating when absent) the database file at `path`.
    init(path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws(SQLiteError) {
        guard sqlite3_threadsafe() != 0 else {
            throw SQLiteError(code: SQLITE_MISUSE, "this SQLite library was built without thread support "
                + "(SQLITE_THREADSAFE=0); the store needs one built with SQLITE_THREADSAFE=1 or 2")
        }
        try super.init(path: path, create: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                       describing: "the database '\(path)'")
    }
}
