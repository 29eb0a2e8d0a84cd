import TallySQLite
import TallyStorage
extension SQLiteConnection {
    /// The current time in milliseconds since 1970, as SQL: when a new customer row was first seen.
    static let nowMilliseconds = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"

    /// Creates the customer row when absent (version 0), so rows that reference it may be written.
    func ensureCustomer(_ appUserId: String) throws(SQLiteError) {
        try execute("INSERT OR IGNORE INTO customers (app_user_id, version, first_seen_at) VALUES (?, 0, "
            + Self.nowMilliseconds + ")", [.text(appUserId)])
    }

    /// Adds one to the customer's version (creating the row at version 1 when absent) and returns the new
    /// version, in one statement; with `factsToo` its facts version becomes the new version as well (a write that
    /// moved only the nets passes false).
    @discardableResult
    func bumpVersion(of appUserId: String, factsToo: Bool = true) throws(SQLiteError) -> Int64 {
        try integer(factsToo ? """
            INSERT INTO customers (app_user_id, version, facts_version, first_seen_at) VALUES (?, 1, 1, \(Self.nowMilliseconds))
            ON CONFLICT (app_user_id) DO UPDATE SET version = version + 1, facts_version = version + 1 RETURNING version
            """ : """
            INSERT INTO customers (app_user_id, version, first_seen_at) VALUES (?, 1, \(Self.nowMilliseconds))
            ON CONFLICT (app_user_id) DO UPDATE SET version = version + 1 RETURNING version
            """, [.text(appUserId)]) ?? 0
    }
}
