extension SQLiteConnection {
    /// Creates the customer row when absent (version 0), so rows that reference it may be written.
    func ensureCustomer(_ appUserId: String) throws(SQLiteError) {
        try execute("INSERT OR IGNORE INTO customers (app_user_id, version) VALUES (?, 0)", [.text(appUserId)])
    }

    /// Adds one to the customer's version (creating the row at version 1 when absent) and returns the new
    /// version, in one statement.
    @discardableResult
    func bumpVersion(of appUserId: String) throws(SQLiteError) -> Int64 {
        try integer("""
            INSERT INTO customers (app_user_id, version) VALUES (?, 1)
            ON CONFLICT (app_user_id) DO UPDATE SET version = version + 1 RETURNING version
            """, [.text(appUserId)]) ?? 0
    }
}
