import TallySQLite

/// One step of the database layout, from format `from` to `from + 1`, run in the write transaction that opens
/// an older `sandbox.sqlite` (and, on a new database, after the base schema). Steps are appended, never edited:
/// ``SandboxDatabase/migrations`` in order.
struct SandboxMigration: Sendable {
    /// What the step does, for messages.
    var name: String
    /// Runs the step inside the caller's transaction.
    var run: @Sendable (SandboxDatabase) throws -> Void
}

extension SandboxDatabase {
    /// The format of the base schema (``schema``), before any step.
    static let baseFormat: Int64 = 2

    /// Every step, oldest first: step `i` takes format `baseFormat + i` to the next. Append only.
    static let migrations: [SandboxMigration] = [
        .orderIds,
        .notificationOutbox,
    ]

    /// Runs the steps from format `stored` to ``format`` in one write transaction, rechecking the format inside it
    /// so two processes opening an old database at once migrate it once.
    func migrate(from stored: Int64) throws(SandboxError) {
        try SandboxDirectory.typed {
            try transaction(writing: true) {
                let current: Int64
                do throws(SQLiteError) { current = try integer("SELECT format FROM store WHERE id = 1") ?? stored } catch {
                    throw error.sandboxError(path: path)
                }
                guard current < Self.format else { return }
                for step in Self.migrations[Int(current - Self.baseFormat)...] { try step.apply(to: self) }
                try write("UPDATE store SET format = ? WHERE id = 1", [.integer(Self.format)])
            }
        }
    }
}

extension SandboxMigration {
    /// Runs the step on `database`, its failures reported as ``SandboxError``.
    func apply(to database: SandboxDatabase) throws(SandboxError) {
        try SandboxDirectory.typed { try run(database) }
    }
}
