import Foundation
import TallyCore
@testable import TallySQLiteStore
@testable import TallyServer
@testable import TallyStorage
import Testing

private typealias F = StoreFixtures

/// The balances the store keeps materialised agree with TallyCore's ledger over the whole history, whatever
/// happened, and are rebuilt when the data or the credits they were built with change.
@Suite("Customer store (SQLite and PostgreSQL): materialised balances")
struct StoreBalanceTests {
    /// The ledger's net of coins over the whole stored history (no date), the rule the nets must equal.
    private func ledgerNet(_ record: CustomerRecord) -> Decimal {
        F.credits.nets(of: record.purchaseHistory)["coins"] ?? 0
    }

    @Test(arguments: StoreKind.tested) func netsFollowCreditsRefundsReversalsSpendsAndOwnership(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        _ = try store.record([F.coins("c1"), F.coins("c2", quantity: 3)], for: "u1", policy: .transfer, at: F.start)
        #expect(try store.customerState("u1").nets == ["coins": 400])
        _ = try store.spend(F.spend("s1", 250), for: "u1")
        var refunded = F.coins("c2", quantity: 3).transaction
        refunded.revocationDate = F.day(1)
        refunded.signedDate = F.day(1)
        _ = try store.record([StoredTransaction(transaction: refunded, source: .signedTransaction)], for: "u1",
                             policy: .transfer, at: F.day(1))
        #expect(try store.customerState("u1").nets == ["coins": -150], "the claw-back leaves a debt")
        // A replay of the purchase copy changes nothing; a reversal signed later returns the credit.
        _ = try store.record([F.coins("c2", quantity: 3)], for: "u1", policy: .transfer, at: F.day(2))
        #expect(try store.customerState("u1").nets == ["coins": -150])
        var reversed = refunded
        reversed.revocationDate = nil
        reversed.signedDate = F.day(3)
        _ = try store.record([StoredTransaction(transaction: reversed, source: .signedTransaction)], for: "u1",
                             policy: .transfer, at: F.day(3))
        #expect(try store.customerState("u1").nets == ["coins": 150])
        // Another customer posting the coins gets nothing, under either policy.
        for policy in [OwnershipPolicy.transfer, .keep] {
            _ = try store.record([F.coins("c1")], for: "u2", policy: policy, at: F.day(4))
            #expect(try store.customerState("u2").nets.isEmpty)
        }
        let record = try store.customer("u1")
        #expect(record.nets["coins"] == ledgerNet(record))
        _ = directory
    }

    @Test(arguments: StoreKind.tested) func randomHistoriesKeepNetsEqualToTheLedger(_ kind: StoreKind) throws {
        var generator = SystemRandomNumberGenerator()
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        let users = ["a", "b", "caf\u{E9}", "cafe\u{301}"]
        var copies: [String: StoreTransaction] = [:]
        for step in 0..<300 {
            let user = users.randomElement(using: &generator)!
            switch Int.random(in: 0..<4, using: &generator) {
            case 0, 1:
                let number = Int.random(in: 0..<40, using: &generator)
                let id = "t\(number)"
                // A first copy never kept in `copies` is made again later: with the same quantity, as Apple's would
                // be (a random one, signed at the same date, replaced the stored copy and could take back coins
                // already spent with no refund, failing the last expectation by chance).
                var transaction = copies[id] ?? F.coins(id, quantity: 1 + number % 3).transaction
                if copies[id] != nil {
                    transaction.signedDate = F.day(Double(step))
                    transaction.revocationDate = Bool.random(using: &generator) ? F.day(Double(step)) : nil
                }
                if Bool.random(using: &generator) { copies[id] = transaction }
                _ = try store.record([StoredTransaction(transaction: transaction, source: .signedTransaction)],
                                     for: user, policy: Bool.random(using: &generator) ? .transfer : .keep,
                                     at: F.day(Double(step)))
            default:
                let amount = Decimal(Int.random(in: 1...150, using: &generator))
                _ = try? store.spend(F.spend("s\(step % 50)", amount, at: F.day(Double(step))), for: user)
            }
        }
        for user in users {
            let record = try store.customer(user)
            #expect((record.nets["coins"] ?? 0) == ledgerNet(record), "\(user)")
            #expect(try store.customerState(user).nets == record.nets)
            #expect(ledgerNet(record) >= 0 || record.transactions.contains { $0.transaction.isRevoked },
                    "only a claw-back makes a net negative")
        }
        // Reopening with the same credits keeps the nets; with other credits, they are rebuilt.
        let kept = try users.map { try store.customer($0).nets }
        let reopened = try directory.open()
        #expect(try users.map { try reopened.customer($0).nets } == kept)
        _ = directory
    }

    @Test(arguments: StoreKind.tested) func changedCreditsRebuildTheBalancesAtOpen(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        do {
            let store = try directory.open()
            _ = try store.record([F.coins("c1", quantity: 2)], for: "u1", policy: .transfer, at: F.start)
            _ = try store.spend(F.spend("s1", 50), for: "u1")
        }
        let doubled = AppConfiguration(bundleId: F.configuration.bundleId, entitlements: F.configuration.entitlements,
                                       currencies: ["coins": ["app.coins.100": 200], "gems": ["app.coins.100": 1]])
        let credits = CurrencyCredits(catalog: F.catalog, configuration: doubled)
        #expect(credits.fingerprint != F.credits.fingerprint)
        let reopened = try directory.open(credits: credits)
        #expect(try reopened.customerState("u1").nets == ["coins": 350, "gems": 2])
    }

    /// SQLite only: its schema 1 (the PostgreSQL store began at what SQLite's schema 4 holds).
    @Test func aVersion1DatabaseGetsItsBalancesAtOpen() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try directory.open()
            _ = try store.record([F.coins("c1", quantity: 2), F.premium("p1")], for: "u1", policy: .transfer,
                                 at: F.start)
            _ = try store.spend(F.spend("s1", 30), for: "u1")
        }
        do {  // Back to what schema 1 had: no balances, no settings, no consumable flag (nor schema 3 to 7 additions).
            let connection = try SQLiteConnection(path: directory.database)
            try SchemaUndo.sqliteSupersession(connection)
            for index in ["customers_by_first_seen", "transactions_by_purchase", "transactions_by_revocation",
                          "transactions_live", "transactions_by_product"] {
                try connection.execute("DROP INDEX \(index)")
            }
            for column in ["product_id", "type", "purchase_ms", "expires_ms", "revocation_ms", "price", "currency",
                           "offer_type", "is_upgraded"] {
                try connection.execute("ALTER TABLE transactions DROP COLUMN \(column)")
            }
            try connection.execute("ALTER TABLE customers DROP COLUMN first_seen_at")
            try connection.execute("ALTER TABLE customers DROP COLUMN facts_version")
            try connection.execute("DROP TABLE consumption_answers")
            try connection.execute("DROP TABLE history_revisions")
            try connection.execute("DROP TABLE notifications")
            try connection.execute("DROP TABLE renewal_infos")
            try connection.execute("DROP TABLE balances")
            try connection.execute("DROP TABLE store_settings")
            try connection.execute("DROP INDEX transactions_for_state")
            try connection.execute("ALTER TABLE transactions DROP COLUMN consumable")
            try connection.execute("PRAGMA user_version = 1")
        }
        let reopened = try directory.open()
        let state = try reopened.customerState("u1")
        #expect(state.nets == ["coins": 170])
        #expect(state.transactions.map(\.transaction.transactionId) == ["p1"], "consumables are flagged by the migration")
    }
}
