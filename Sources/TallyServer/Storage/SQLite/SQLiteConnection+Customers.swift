extension SQLiteConnection {
    /// Creates the customer row when absent (version 0), so rows that reference it may be written.
    func ensureCustomer(_ appUserId: String) throws(SQLiteError) {
        try execute("INSERT OR IGNORE INTO customers (app_user_id, version) VALUES (?, 0)", [.text(appUserId)])
    }

    /// Adds one to the customer's version (creating the row when absent) and returns the new version.
    @discardableResult
    func bumpVersion(of appUserId: String) throws(SQLiteError) -> Int64 {
        try ensureCustomer(appUserId)
        try execute("UPDATE customers SET version = version + 1 WHERE app_user_id = ?", [.text(appUserId)])
        return try integer("SELECT version FROM customers WHERE app_user_id = ?", [.text(appUserId)]) ?? 0
    }
}
