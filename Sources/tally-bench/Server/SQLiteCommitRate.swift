import CSQLite
import Foundation

/// The peer for the transaction-post benchmark: SQLite's own rate of committed single-row transactions in
/// the same temporary folder, with the server's durability settings (WAL, `synchronous=FULL`).
enum SQLiteCommitRate {
    /// Commits one INSERT of a `payloadBytes` blob per transaction for about `seconds` into a new database
    /// `commit-rate-<name>.sqlite`; returns commits/s.
    static func measure(folder: URL, name: String, seconds: Double, payloadBytes: Int = 3_000) throws -> Double {
        let path = folder.appendingPathComponent("commit-rate-\(name).sqlite").path
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK,
            let database
        else { throw BenchError("could not open \(path)") }
        defer { sqlite3_close_v2(database) }
        for sql in ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL",
                    "CREATE TABLE rows (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)"] {
            guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
                throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(database)))")
            }
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "INSERT INTO rows (payload) VALUES (?)", -1, &statement, nil) == SQLITE_OK,
            let statement
        else { throw BenchError("prepare: \(String(cString: sqlite3_errmsg(database)))") }
        defer { sqlite3_finalize(statement) }
        let payload = [UInt8](repeating: 0x5A, count: payloadBytes)
        var commits = 0
        let start = DispatchTime.now().uptimeNanoseconds
        var elapsed = 0.0
        while elapsed < seconds {
            let stepped = payload.withUnsafeBytes { bytes in
                sqlite3_bind_blob(statement, 1, bytes.baseAddress, Int32(bytes.count), tally_sqlite_transient())
                    == SQLITE_OK && sqlite3_step(statement) == SQLITE_DONE
            }
            sqlite3_reset(statement)
            guard stepped else { throw BenchError("insert: \(String(cString: sqlite3_errmsg(database)))") }
            commits += 1
            elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        return Double(commits) / elapsed
    }
}
