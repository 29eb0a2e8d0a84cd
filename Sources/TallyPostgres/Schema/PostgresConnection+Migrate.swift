extension PostgresConnection {
    /// The schema version stored in the database; 0 for a database Tally never wrote.
    func schemaVersion() throws(PostgresError) -> Int {
        let exists = try query("SELECT to_regclass('tally_schema') IS NOT NULL")
        guard exists.bool(0, 0) == true else { return 0 }
        return Int(try query("SELECT version FROM tally_schema").integer(0, 0) ?? 0)
    }

    /// Brings the schema to ``PostgresSchema/currentVersion``, one migration per transaction, each under the
    /// migration advisory lock taken inside it (`pg_advisory_xact_lock`, so it holds on whatever server connection a
    /// pooler in transaction mode gives the transaction, and is released by its COMMIT or ROLLBACK): the version is
    /// read again under the lock, so a second server starting at the same moment waits, then finds nothing to do.
    ///
    /// - Throws: a ``PostgresError`` with SQLSTATE `TSNEW` when the database was written by a newer Tally.
    func migrate() throws(PostgresError) {
        while true {
            try execute("BEGIN")
            do throws(PostgresError) {
                try query("SELECT pg_advisory_xact_lock($1::bigint)", [.integer(PostgresSchema.migrationLockKey)])
                let version = try schemaVersion()
                guard version <= PostgresSchema.currentVersion else {
                    throw PostgresError(sqlState: PostgresError.newerSchemaSQLState,
                                        "the database has schema version \(version), newer than the "
                                        + "\(PostgresSchema.currentVersion) this tally knows: it was written by a newer "
                                        + "Tally; run that version (or a newer one), never an older one, on this database")
                }
                if version == PostgresSchema.currentVersion {
                    try execute("COMMIT")
                    return
                }
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
