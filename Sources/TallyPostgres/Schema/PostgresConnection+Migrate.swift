extension PostgresConnection {
    /// The schema version stored in the database; 0 for a database Tally never wrote.
    func schemaVersion() throws(PostgresError) -> Int {
        let exists = try query("SELECT to_regclass('tally_schema') IS NOT NULL")
        guard exists.bool(0, 0) == true else { return 0 }
        return Int(try query("SELECT version FROM tally_schema").integer(0, 0) ?? 0)
    }

    /// Brings the schema to ``PostgresSchema/currentVersion`` under the migration advisory lock (held for the
    /// session while it runs, so a second server starting at the same moment waits, then finds nothing to do).
    /// Each migration runs in its own transaction with the version it reaches.
    ///
    /// - Throws: a ``PostgresError`` with SQLSTATE `TSNEW` when the database was written by a newer Tally.
    func migrate() throws(PostgresError) {
        try query("SELECT pg_advisory_lock($1::bigint)", [.integer(PostgresSchema.migrationLockKey)])
        defer { _ = try? query("SELECT pg_advisory_unlock($1::bigint)", [.integer(PostgresSchema.migrationLockKey)]) }
        let found = try schemaVersion()
        guard found <= PostgresSchema.currentVersion else {
            throw PostgresError(sqlState: PostgresError.newerSchemaSQLState,
                                "the database has schema version \(found), newer than the \(PostgresSchema.currentVersion) "
                                + "this tally knows: it was written by a newer Tally; run that version (or a newer one), "
                                + "never an older one, on this database")
        }
        for version in found..<PostgresSchema.currentVersion {
            try execute("BEGIN")
            do throws(PostgresError) {
                if version == 0 {
                    try executeScript("CREATE TABLE tally_schema (version integer NOT NULL); INSERT INTO tally_schema VALUES (0)")
                }
                try executeScript(PostgresSchema.migrations[version])
                if version + 1 == PostgresSchema.dashboardColumnsVersion { try fillDashboardColumns() }
                if version + 1 == PostgresSchema.offerColumnsVersion { try fillOfferColumns() }
                try query("UPDATE tally_schema SET version = $1::integer", [.integer(Int64(version + 1))])
                try execute("COMMIT")
            } catch {
                _ = try? execute("ROLLBACK")
                throw error
            }
        }
    }
}

extension PostgresError {
    /// The store's SQLSTATE for a database newer than this code.
    static let newerSchemaSQLState = "TSNEW"
}
