import Foundation
import TallyCore
@testable import TallyPostgres
import TallySQLite
@testable import TallySQLiteStore
@testable import TallyServer
@testable import TallyStorage
import Testing

private typealias F = StoreFixtures

/// The stores keep TallyCore's `PeriodSupersession` marks through the real recorder: a state at `now` reads only
/// the periods not superseded by then, so a subscriber's read stays a few rows however many renewals they have —
/// and the state computed from it is the state of the whole record.
@Suite("Customer store (SQLite and PostgreSQL): superseded periods")
struct StoreSupersessionTests {
    private static let rules = CatalogRules(catalog: F.catalog, configuration: F.configuration)
    private static let length: TimeInterval = 30 * 86_400

    /// Period `index` of chain `chain`: 30 days each, back to back from ``StoreFixtures/start``.
    private func period(_ index: Int, chain: String = "p0", product: String = "app.pro.month",
                        revokedAt: Date? = nil, signed: Date? = nil) -> StoredTransaction {
        let from = F.start.addingTimeInterval(Double(index) * Self.length)
        return F.signed(StoreTransaction(
            transactionId: index == 0 ? chain : "\(chain)-\(index)", originalTransactionId: chain, productId: product,
            subscriptionGroupIdentifier: "pro", purchaseDate: from, expiresDate: from.addingTimeInterval(Self.length),
            type: .autoRenewable, signedDate: signed ?? from, revocationReason: revokedAt.map { _ in .appIssue },
            revocationDate: revokedAt))
    }

    private static func state(_ record: CustomerRecord, at now: Date) -> CustomerState {
        CustomerState(rules: rules, history: record.purchaseHistory, nets: record.nets, at: now)
    }

    /// The state at `now` from the store's read for `now` equals the state of the whole record; returns how many
    /// transactions the read held.
    @discardableResult
    private func expectSameState(_ store: any CustomerStore, _ user: String, at now: Date,
                                 _ comment: Comment) throws -> Int {
        let read = try store.customerState(user, at: now)
        let whole = try store.customer(user)
        #expect(Self.state(read, at: now) == Self.state(whole, at: now), comment)
        #expect(read.version == whole.version, comment)
        return read.transactions.count
    }

    @Test(arguments: StoreKind.tested) func renewalsLeaveTheStateRead(_ kind: StoreKind) throws {
        let database = try StoreUnderTest(kind)
        let store = try database.open()
        let user = "subscriber"
        _ = try store.record([F.premium("n1"), F.coins("c1")], for: user, policy: .transfer, at: F.start)
        for index in 0..<24 {
            let posted = period(index)
            let bought = posted.transaction.purchaseDate
            let (_, written, _) = try store.recordReadingState([posted], for: user, policy: .transfer,
                                                               at: bought.addingTimeInterval(3_600), knownFactsVersion: nil)
            // The write's own read: the non-consumable and the period in force, whatever came before.
            #expect(written.transactions.count == 2, "period \(index): \(written.transactions.map(\.transaction.transactionId))")
            let now = bought.addingTimeInterval(3_600)
            #expect(try expectSameState(store, user, at: now, "period \(index)") == 2)
            if index > 0 {
                // Asked for a moment before the renewal was bought, the period it superseded is read again.
                #expect(try expectSameState(store, user, at: bought.addingTimeInterval(-1), "before \(index)") == 3)
            }
        }
        #expect(try store.customer(user).transactions.count == 26)
        #expect(try store.customerState(user).transactions.count == 25, "with no date, every non-consumable is read")
    }

    @Test(arguments: StoreKind.tested) func aRefundOfTheLatestPeriodBringsBackTheOneBefore(_ kind: StoreKind) throws {
        let database = try StoreUnderTest(kind)
        let store = try database.open()
        let user = "refunded"
        for index in 0..<6 { _ = try store.record([period(index)], for: user, policy: .transfer, at: F.start) }
        let later = F.start.addingTimeInterval(5.5 * Self.length)
        #expect(try expectSameState(store, user, at: later, "before the refund") == 1)
        let refunded = period(5, revokedAt: later, signed: later)
        _ = try store.record([refunded], for: user, policy: .transfer, at: later)
        let after = later.addingTimeInterval(60)
        #expect(try expectSameState(store, user, at: after, "after the refund") == 2, "period 4 is read again")
        #expect(Self.state(try store.customerState(user, at: after), at: after).subscriptions.first?.status == .revoked)
        // The next renewal supersedes both.
        _ = try store.record([period(6)], for: user, policy: .transfer, at: after)
        let renewed = F.start.addingTimeInterval(6.1 * Self.length)
        #expect(try expectSameState(store, user, at: renewed, "after the next renewal") == 1)
    }

    @Test(arguments: StoreKind.tested) func aSecondProductInTheGroupClearsTheMarks(_ kind: StoreKind) throws {
        let database = try StoreUnderTest(kind)
        let store = try database.open()
        let user = "crossgraded"
        for index in 0..<6 { _ = try store.record([period(index)], for: user, policy: .transfer, at: F.start) }
        _ = try store.record([period(6, product: "app.pro.year")], for: user, policy: .transfer, at: F.start)
        let now = F.start.addingTimeInterval(6.5 * Self.length)
        #expect(try expectSameState(store, user, at: now, "two products") == 7, "nothing is left out")
        _ = try store.record([period(7, product: "app.pro.year")], for: user, policy: .transfer, at: F.start)
        #expect(try expectSameState(store, user, at: now.addingTimeInterval(Self.length), "still two products") == 8)
    }

    @Test(arguments: StoreKind.tested) func aChainMovedToAnotherCustomerIsReadWholeUntilItsNextRenewal(_ kind: StoreKind) throws {
        let database = try StoreUnderTest(kind)
        let store = try database.open()
        for index in 0..<6 { _ = try store.record([period(index)], for: "a", policy: .transfer, at: F.start) }
        let now = F.start.addingTimeInterval(5.5 * Self.length)
        #expect(try expectSameState(store, "a", at: now, "a before") == 1)
        // "b" restores the chain on another account: it moves with every period.
        let outcome = try store.record([period(5)], for: "b", policy: .transfer, at: now)
        #expect(outcome.transfers.count == 1)
        #expect(try expectSameState(store, "b", at: now, "b after the move") == 6)
        #expect(try expectSameState(store, "a", at: now, "a after the move") == 0)
        _ = try store.record([period(6)], for: "b", policy: .transfer, at: now)
        let renewed = F.start.addingTimeInterval(6.5 * Self.length)
        #expect(try expectSameState(store, "b", at: renewed, "b after its renewal") == 1)
    }

    @Test(arguments: StoreKind.tested) func periodsDeliveredOutOfOrderAreLeftOutToo(_ kind: StoreKind) throws {
        let database = try StoreUnderTest(kind)
        let store = try database.open()
        let user = "backfilled"
        // The latest period first (the app's current entitlement), then the history, oldest last.
        for index in (0..<12).reversed() { _ = try store.record([period(index)], for: user, policy: .transfer, at: F.start) }
        let now = F.start.addingTimeInterval(11.5 * Self.length)
        #expect(try expectSameState(store, user, at: now, "backfilled") == 1)
        // A redelivered old copy changes nothing, a newer copy of an old period stays left out once judged again.
        _ = try store.record([period(3)], for: user, policy: .transfer, at: now)
        let resigned = period(3, signed: now)
        _ = try store.record([resigned], for: user, policy: .transfer, at: now)
        #expect(try expectSameState(store, user, at: now, "a re-signed old period") == 1)
    }

    @Test(arguments: StoreKind.tested) func periodsStoredBeforeTheMigrationAreLeftOutFromTheNextRenewal(_ kind: StoreKind) throws {
        let database = try StoreUnderTest(kind)
        do {
            let store = try database.open()
            for index in 0..<6 { _ = try store.record([period(index)], for: "old", policy: .transfer, at: F.start) }
        }
        if let path = database.sqlitePath {  // Back to SQLite's schema 7.
            let connection = try SQLiteConnection(path: path)
            try SchemaUndo.sqliteSupersession(connection)
            try connection.execute("PRAGMA user_version = 7")
        } else if let url = database.url {  // Back to PostgreSQL's schema 5.
            let connection = try PostgresConnection(url: url, connectTimeoutSeconds: 5)
            try connection.executeScript(SchemaUndo.postgresSupersession + "UPDATE tally_schema SET version = 5;")
        }
        let store = try database.open()
        let now = F.start.addingTimeInterval(5.5 * Self.length)
        #expect(try expectSameState(store, "old", at: now, "migrated") == 6, "rows written before start unmarked")
        _ = try store.record([period(6)], for: "old", policy: .transfer, at: now)
        #expect(try expectSameState(store, "old", at: now.addingTimeInterval(Self.length), "renewed") == 1)
    }
}
