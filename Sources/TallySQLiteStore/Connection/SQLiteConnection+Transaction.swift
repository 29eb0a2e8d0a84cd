import CSQLite
import TallySQLite
import TallyStorage

extension SQLiteConnection {
    /// Runs `body` inside `BEGIN IMMEDIATE` … `COMMIT`: the write lock is taken up front, so the reads in
    /// `body` and its writes form one atomic step. Any error rolls the transaction back and is rethrown;
    /// the method returns only after COMMIT (durable under `synchronous=FULL`).
    func immediateTransaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try transaction("BEGIN IMMEDIATE", body)
    }

    /// Runs `body` inside a deferred read transaction, so all its queries see one snapshot of the database.
    func readTransaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try transaction("BEGIN", body)
    }

    private func transaction<T>(_ begin: String, _ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            rollbackIfActive()
            throw error
        }
    }

    /// Rolls back the open transaction, if any. A failed COMMIT may already have ended it (SQLite rolls back
    /// on some I/O errors), so an error here is not reported over the one that caused the rollback.
    func rollbackIfActive() {
        guard isInTransaction else { return }
        try? execute("ROLLBACK")
    }

    /// Whether a transaction is open (SQLite ends one by itself on some errors: a full disk, an I/O error).
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}
