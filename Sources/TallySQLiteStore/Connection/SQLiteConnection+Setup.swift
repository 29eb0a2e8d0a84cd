import CSQLite
import TallySQLite
import TallyStorage

extension SQLiteConnection {
    /// Settings every connection of the store uses: foreign keys enforced, `synchronous=FULL` (a COMMIT
    /// reaches the disk before it returns).
    func configureForStore() throws(SQLiteError) {
        try execute("PRAGMA foreign_keys = ON")
        try execute("PRAGMA synchronous = FULL")
        guard try integer("PRAGMA foreign_keys") == 1 else {
            throw SQLiteError(code: SQLITE_MISUSE, "'\(path)': this SQLite does not enforce foreign keys")
        }
    }

    /// For the write connection, once migrated: temporary storage in memory, so the savepoint of each write in a
    /// commit group keeps its undo pages (SQLite's statement journal) in memory. By default they spill to a
    /// temporary file past 64 KiB, which cost a 4-byte and a page-sized `pwrite` for every page a write touched
    /// (five times the WAL's own writes in a profile of posts). A write's undo pages are bounded by what one write
    /// touches; the read connections keep the default, so a large sort of theirs may still use a file.
    func keepStatementJournalsInMemory() throws(SQLiteError) {
        try execute("PRAGMA temp_store = MEMORY")
    }

    /// Switches the database to write-ahead logging, which lets readers run beside the writer.
    func enableWriteAheadLog() throws(SQLiteError) {
        let mode = try text("PRAGMA journal_mode = WAL")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(code: SQLITE_CANTOPEN, "'\(path)' cannot use write-ahead logging (journal mode "
                + "stayed '\(mode ?? "unknown")'); put the database on a local file system")
        }
    }

    /// Brings the schema to ``StoreSchema/currentVersion`` inside one `BEGIN IMMEDIATE` transaction.
    /// Throws when the file's `user_version` is newer than this code knows.
    func migrate() throws(SQLiteError) {
        try immediateTransaction { () throws(SQLiteError) in
            let found = Int(try integer("PRAGMA user_version") ?? 0)
            let known = StoreSchema.currentVersion
            guard found <= known else {
                throw SQLiteError(code: SQLITE_CANTOPEN, "'\(path)' has schema version \(found), newer than the "
                    + "\(known) this server knows; run a newer tally, or restore a backup made for this version")
            }
            guard found >= 0 else {
                throw SQLiteError(code: SQLITE_CORRUPT, "'\(path)' has schema version \(found); expected 0…\(known)")
            }
            for (index, steps) in StoreSchema.migrations.enumerated().dropFirst(found) {
                for step in steps { try execute(step) }
                // PRAGMA takes no bound parameters; the value is this code's own migration number, not data.
                try execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }
}
