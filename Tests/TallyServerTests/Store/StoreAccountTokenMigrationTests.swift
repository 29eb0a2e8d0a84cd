import Foundation
import TallyCore
@testable import TallyPostgres
import TallySQLite
@testable import TallySQLiteStore
@testable import TallyServer
@testable import TallyStorage
import Testing

private typealias F = StoreFixtures

/// The account-token migrations (SQLite 11, PostgreSQL 9): the tokens stored before were given to whoever posted
/// them first, with no proof, so they are dropped; chains keep their owners, and minting works after.
@Suite("Customer store (SQLite and PostgreSQL): tokens given by first post are dropped at migration")
struct StoreAccountTokenMigrationTests {
    static let given = "6e3b1a52-0000-4000-8000-0000000000aa"

    @Test func sqliteDropsTokensGivenBeforeMigration11() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try directory.open()
            _ = try store.record([F.premium("t1", token: Self.given)], for: "attacker", policy: .keep, at: F.start)
        }
        do {  // Back to schema 10, with the token given by the first post as the old server did.
            let connection = try SQLiteConnection(path: directory.database)
            try connection.execute("DROP INDEX account_tokens_by_customer")
            try connection.execute("INSERT INTO account_tokens (app_account_token, app_user_id) VALUES (?, ?)",
                                   [.text(Self.given), .text("attacker")])
            try connection.execute("PRAGMA user_version = 10")
        }
        let store = try directory.open()
        #expect(try store.owner(ofToken: Self.given) == nil)
        _ = try store.record([F.coins("t2", token: Self.given)], for: "victim", policy: .keep, at: F.day(1))
        #expect(try store.customer("victim").transactions.map(\.transaction.transactionId) == ["t2"])
        #expect(try store.customer("attacker").transactions.map(\.transaction.transactionId) == ["t1"])
        let minted = try store.mintAccountToken(for: "victim", candidate: AccountToken.mint())
        #expect(try store.owner(ofToken: minted) == "victim")
    }

    @Test(.enabled(if: PostgresTestDatabase.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
    func postgresDropsTokensGivenBeforeMigration9() throws {
        let database = try StoreUnderTest(.postgres)
        let url = try #require(database.url, "a PostgreSQL store has a URL")
        do {
            let store = try database.open()
            _ = try store.record([F.premium("t1", token: Self.given)], for: "attacker", policy: .keep, at: F.start)
        }
        do {  // Back to schema 8, with the token given by the first post as the old server did.
            let connection = try PostgresConnection(url: url, connectTimeoutSeconds: 5)
            try connection.executeScript("""
                DROP INDEX account_tokens_by_customer;
                INSERT INTO account_tokens (app_account_token, app_user_id)
                    VALUES (convert_to('\(Self.given)', 'UTF8'), convert_to('attacker', 'UTF8'));
                UPDATE tally_schema SET version = 8;
                """)
        }
        let store = try database.open()
        #expect(try store.owner(ofToken: Self.given) == nil)
        _ = try store.record([F.coins("t2", token: Self.given)], for: "victim", policy: .keep, at: F.day(1))
        #expect(try store.customer("victim").transactions.map(\.transaction.transactionId) == ["t2"])
        let minted = try store.mintAccountToken(for: "victim", candidate: AccountToken.mint())
        #expect(try store.owner(ofToken: minted) == "victim")
    }
}
