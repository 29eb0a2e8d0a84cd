import TallySQLite
@testable import TallySQLiteStore
@testable import TallyServer
@testable import TallyStorage

/// Takes a store's schema back before a migration, for the tests that open a database written by an older server.
enum SchemaUndo {
    /// SQLite's migration 8 (supersession marks) undone: its columns and indexes gone, the state's index as before;
    /// migrations 15 (offer indexes) and 10 (transfer moves) first, as every test going back to 7 or before needs.
    static func sqliteSupersession(_ connection: SQLiteConnection) throws {
        try sqliteDashboardOffers(connection)
        try sqliteTransferMoves(connection)
        try connection.execute("DROP INDEX transactions_by_superseder")
        try connection.execute("DROP INDEX transactions_for_state")
        try connection.execute("ALTER TABLE transactions DROP COLUMN superseded_by")
        try connection.execute("ALTER TABLE transactions DROP COLUMN superseded_from_ms")
        try connection.execute("CREATE INDEX transactions_for_state ON transactions(app_user_id, consumable)")
    }

    /// SQLite's migration 15 (the dashboard's offer indexes) undone: as every test going back before it needs that
    /// drops a column they index.
    static func sqliteDashboardOffers(_ connection: SQLiteConnection) throws {
        try connection.execute("DROP INDEX transactions_by_offer")
        try connection.execute("DROP INDEX transactions_offer_totals")
    }

    /// SQLite's migration 10 (transfer moves) undone.
    static func sqliteTransferMoves(_ connection: SQLiteConnection) throws {
        try connection.execute("DROP INDEX transfers_by_chain")
        try connection.execute("ALTER TABLE transfers DROP COLUMN moves")
    }

    /// PostgreSQL's migration 8 (transfer moves) undone.
    static let postgresTransferMoves = """
        DROP INDEX transfers_by_chain;
        ALTER TABLE transfers DROP COLUMN moves;
        """

    /// PostgreSQL's migration 6 (supersession marks) undone, as one script (migration 8 first).
    static let postgresSupersession = postgresTransferMoves + """
        DROP INDEX transactions_by_superseder, transactions_for_state;
        ALTER TABLE transactions DROP COLUMN superseded_from_ms, DROP COLUMN superseded_by;
        CREATE INDEX transactions_for_state ON transactions(app_user_id, consumable);
        """
}
