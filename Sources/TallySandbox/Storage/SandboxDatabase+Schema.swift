import CSQLite

extension SandboxDatabase {
    /// The version of the database layout this code writes and reads (`store.format`): the base schema's and
    /// one more per migration step; older databases are migrated when opened.
    static var format: Int64 { baseFormat + Int64(migrations.count) }

    /// The tables: one store-wide row, then one row per account, transaction, subscription chain, unfinished
    /// delivery and event, so a change reads and writes only the rows of the accounts it touches.
    static let schema = [
        """
        CREATE TABLE store (id INTEGER PRIMARY KEY CHECK (id = 1), format INTEGER NOT NULL,
            generation INTEGER NOT NULL, now_ms INTEGER NOT NULL, body TEXT NOT NULL)
        """,
        "CREATE TABLE accounts (name TEXT PRIMARY KEY, body TEXT NOT NULL)",
        """
        CREATE TABLE transactions (transaction_id TEXT PRIMARY KEY, account TEXT NOT NULL,
            position INTEGER NOT NULL, body TEXT NOT NULL)
        """,
        "CREATE INDEX transactions_by_account ON transactions (account, position)",
        """
        CREATE TABLE chains (account TEXT NOT NULL, group_id TEXT NOT NULL, body TEXT NOT NULL,
            PRIMARY KEY (account, group_id))
        """,
        """
        CREATE TABLE unfinished (account TEXT NOT NULL, device TEXT NOT NULL, transaction_id TEXT NOT NULL,
            sequence INTEGER NOT NULL, PRIMARY KEY (account, device, transaction_id))
        """,
        "CREATE TABLE events (sequence INTEGER PRIMARY KEY, account TEXT NOT NULL, body TEXT NOT NULL)",
        "CREATE INDEX events_by_account ON events (account, sequence)",
    ]

    /// Creates the tables in an empty database, in WAL mode: the base schema, then every migration step.
    func createSchema() throws(SandboxError) {
        do {
            try execute("PRAGMA journal_mode = WAL")
            for statement in Self.schema { try execute(statement) }
        } catch {
            throw error.sandboxError(path: path)
        }
        for step in Self.migrations { try step.apply(to: self) }
    }

    /// Checks that this is a sandbox database of ``format``, migrating an older one (``migrations``) first.
    func checkFormat() throws(SandboxError) {
        let stored: Int64?
        do {
            stored = try integer("SELECT format FROM store WHERE id = 1")
        } catch where error.code & 0xff == SQLITE_ERROR {
            throw SandboxError(.corruptState, "\(path) is not a valid sandbox database (\(error.message)): restore it from a backup or run 'tally sandbox init' in a new directory")
        } catch {
            throw error.sandboxError(path: path)
        }
        guard let stored else {
            throw SandboxError(.corruptState, "\(path) holds no sandbox (its store row is missing): restore it from a backup or run 'tally sandbox init' in a new directory")
        }
        if stored >= Self.baseFormat && stored < Self.format {
            try migrate(from: stored)
            return
        }
        guard stored == Self.format else {
            throw SandboxError(.corruptState, "\(path) is format \(stored), this tally reads \(Self.format)")
        }
    }
}
