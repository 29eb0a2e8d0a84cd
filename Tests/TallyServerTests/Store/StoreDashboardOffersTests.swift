import Foundation
import TallyCore
@testable import TallyPostgres
@testable import TallySQLiteStore
@testable import TallyServer
@testable import TallyStorage
import Testing

private typealias F = StoreFixtures

@Suite("Both stores: the dashboard's offer redemptions")
struct StoreDashboardOffersTests {
    private static func transaction(_ id: String, day: Double, offer: OfferType?, _ identifier: String?,
                                    _ discount: OfferDiscountType? = nil) -> StoredTransaction {
        F.signed(StoreTransaction(
            transactionId: id, originalTransactionId: id, productId: "app.pro.month", subscriptionGroupIdentifier: "pro",
            purchaseDate: F.day(day), expiresDate: F.day(day + 30), type: .autoRenewable, signedDate: F.day(day),
            offerType: offer, offerIdentifier: identifier, environment: .sandbox, currency: "USD", price: 990,
            offerDiscountType: discount))
    }

    /// Offers of every type, two ids that differ only after a NUL byte (their payloads hold `\u0000`), two
    /// redemptions at the same moment (ordered by transaction id), and a purchase without an offer.
    private static func seed(_ store: any CustomerStore) throws {
        let rows: [(String, StoredTransaction)] = [
            ("ann", transaction("t1", day: 1, offer: .introductory, nil, .freeTrial)),
            ("bob", transaction("t2", day: 2, offer: .promotional, "winback_50", .payUpFront)),
            ("cy", transaction("t3", day: 3, offer: nil, nil)),
            ("dan", transaction("t4", day: 4, offer: .offerCode, "code\u{0}1", .payAsYouGo)),
            ("gus", transaction("t7", day: 4.5, offer: .offerCode, "code\u{0}2", .payAsYouGo)),
            ("eve", transaction("t6", day: 5, offer: .winBack, "<b>back</b>", .freeTrial)),
            ("fay", transaction("t5", day: 5, offer: .promotional, "winback_50", .payUpFront)),
        ]
        for (customer, row) in rows { _ = try store.record([row], for: customer, policy: .transfer, at: F.day(6)) }
    }

    /// What every store answers for ``seed(_:)``, page by page.
    private static func expectSeeded(_ store: any DashboardStore, _ comment: Comment) throws {
        let all = try store.offerRedemptions(before: nil, limit: 10)
        #expect(all.redemptions.map(\.transactionId) == ["t6", "t5", "t7", "t4", "t2", "t1"], comment)
        #expect(all.redemptions.map(\.appUserId) == ["eve", "fay", "gus", "dan", "bob", "ann"], comment)
        #expect(all.redemptions.map(\.offerType) == [4, 2, 3, 3, 2, 1], comment)
        #expect(all.redemptions.map(\.offerIdentifier) == ["<b>back</b>", "winback_50", "code\u{0}2", "code\u{0}1",
                                                           "winback_50", nil], comment)
        #expect(all.redemptions.map(\.offerDiscountType) == ["FREE_TRIAL", "PAY_UP_FRONT", "PAY_AS_YOU_GO", "PAY_AS_YOU_GO",
                                                             "PAY_UP_FRONT", "FREE_TRIAL"], comment)
        #expect(all.redemptions.allSatisfy { $0.environment == "Sandbox" && $0.price == 990 && $0.currency == "USD" }, comment)
        #expect(all.redemptions.last?.purchaseDate == F.day(1), comment)
        let totals = DashboardOfferTotal.ordered(all.totals)
        #expect(totals == [.init(offerType: 1, offerIdentifier: nil, count: 1),
                           .init(offerType: 2, offerIdentifier: "winback_50", count: 2),
                           .init(offerType: 3, offerIdentifier: "code\u{0}1", count: 1),
                           .init(offerType: 3, offerIdentifier: "code\u{0}2", count: 1),
                           .init(offerType: 4, offerIdentifier: "<b>back</b>", count: 1)], comment)
        let first = try store.offerRedemptions(before: nil, limit: 2)
        let next = try store.offerRedemptions(before: first.redemptions.last?.position, limit: 2)
        #expect(first.redemptions.map(\.transactionId) == ["t6", "t5"], comment)
        #expect(next.redemptions.map(\.transactionId) == ["t7", "t4"], "the page after the tie: \(comment)")
        #expect(DashboardOfferTotal.ordered(next.totals) == totals, "every page counts every offer: \(comment)")
    }

    @Test(arguments: StoreKind.tested) func offerRedemptionsAreListedNewestFirstWithEveryOffersCount(_ kind: StoreKind) throws {
        let database = try StoreUnderTest(kind)
        let store = try database.open()
        try Self.seed(store)
        try Self.expectSeeded(try #require(store as? any DashboardStore), "\(kind)")
    }

    @Test func sqliteOffersStoredBeforeMigration15AreListed() throws {
        let database = try StoreUnderTest(.sqlite)
        let path = try #require(database.sqlitePath, "a SQLite store has a file")
        try Self.seed(try database.open())
        do {  // Back to schema 14.
            let connection = try SQLiteConnection(path: path)
            try SchemaUndo.sqliteDashboardOffers(connection)
            try connection.execute("PRAGMA user_version = 14")
        }
        try Self.expectSeeded(try #require(try database.open() as? any DashboardStore), "after migration 15")
    }

    @Test(.enabled(if: PostgresTestDatabase.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
    func postgresOffersStoredBeforeMigration13AreFilledIncludingPayloadsWithNULs() throws {
        let database = try StoreUnderTest(.postgres)
        let url = try #require(database.url, "a PostgreSQL store has a URL")
        try Self.seed(try database.open())
        do {  // Back to schema 12.
            let connection = try PostgresConnection(url: url, connectTimeoutSeconds: 5)
            try connection.executeScript("""
                DROP INDEX transactions_by_offer;
                ALTER TABLE transactions DROP COLUMN offer_identifier, DROP COLUMN offer_discount_type, DROP COLUMN environment;
                UPDATE tally_schema SET version = 12;
                """)
        }
        try Self.expectSeeded(try #require(try database.open() as? any DashboardStore), "filled by migration 13")
    }
}
