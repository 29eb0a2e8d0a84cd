@testable import TallyServer
import TallySQLite

/// Takes a store's schema back before a migration, for the tests that open a database written by an older server.
enum SchemaUndo {
    /// SQLite's migration 8 (supersession marks) undone: its columns and indexes gone, the state's index as before.
    static func sqliteSupersession(_ connection: SQLiteConnection) throws {
        try connection.execute("DROP INDEX transactions_by_superseder")
        try connection.execute("DROP INDEX transactions_for_state")
        try connection.execute("ALTER TABLE transactions DROP COLUMN superseded_by")
        try connection.execute("ALTER TABLE transactions DROP COLUMN superseded_from_ms")
        try connection.execute("CREATE INDEX transactions_for_state ON transactions(app_user_id, consumable)")
    }

    /// PostgreSQL's migration 6 (supersession marks) undone, as one script.
    static let postgresSupersession = """
        DROP INDEX transactions_by_superseder, transactions_for_state;
        ALTER TABLE transactions DROP COLUMN superseded_from_ms, DROP COLUMN superseded_by;
        CREATE INDEX transactions_for_state ON transactions(app_user_id, consumable);
        """
}
