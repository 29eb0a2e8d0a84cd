import Foundation
import TallyCore
@testable import TallyPostgres
@testable import TallySQLiteStore
@testable import TallyServer
@testable import TallyStorage
import Testing

private typealias F = StoreFixtures

@Suite("Both stores: the dashboard's queries")
struct StoreDashboardTests {
    private static func transaction(_ id: String, original: String, from: Date, days: Double = 30,
                                    offer: OfferType? = nil, upgraded: Bool? = nil, revokedAt: Date? = nil,
                                    price: Int64 = 1990) -> StoredTransaction {
        F.signed(StoreTransaction(
            transactionId: id, originalTransactionId: original, productId: "app.pro.month",
            subscriptionGroupIdentifier: "pro", purchaseDate: from, expiresDate: from.addingTimeInterval(days * 86_400),
            type: .autoRenewable, signedDate: from, revocationReason: revokedAt.map { _ in .appIssue },
            revocationDate: revokedAt, isUpgraded: upgraded, offerType: offer, currency: "USD", price: price))
    }

    /// A fresh store of `kind` and its dashboard queries (see ``StoreUnderTest`` for PostgreSQL's absence).
    private static func open(_ kind: StoreKind, test: String = #function) throws
        -> (database: StoreUnderTest, store: any CustomerStore & DashboardStore)
    {
        let database = try StoreUnderTest(kind, test: test)
        let store = try #require(try database.open() as? any CustomerStore & DashboardStore,
                                 "the \(kind) store has the dashboard's queries")
        return (database, store)
    }

    @Test(arguments: StoreKind.tested) func aChainCountsOnceWhileAPeriodIsInForceAndNotWhenRevokedOrUpgraded(_ kind: StoreKind) throws {
        let (database, store) = try Self.open(kind)
        defer { withExtendedLifetime(database) {} }
        let now = F.day(40)
        _ = try store.record([Self.transaction("a1", original: "a1", from: F.start),
                              Self.transaction("a2", original: "a1", from: F.day(30))], for: "ann", policy: .transfer, at: now)
        _ = try store.record([Self.transaction("b1", original: "b1", from: F.day(35), offer: .introductory)],
                             for: "bob", policy: .transfer, at: now)
        _ = try store.record([Self.transaction("c1", original: "c1", from: F.day(35), revokedAt: F.day(36))],
                             for: "cy", policy: .transfer, at: now)
        _ = try store.record([Self.transaction("d1", original: "d1", from: F.day(35), upgraded: true)],
                             for: "dan", policy: .transfer, at: now)
        _ = try store.record([Self.transaction("e1", original: "e1", from: F.start)], for: "eve", policy: .transfer, at: now)
        let overview = try store.dashboardOverview(days: DashboardDays(count: 90, endingAt: now), now: now)
        #expect(overview.products == [.init(productId: "app.pro.month", active: 2, trials: 1)],
                "ann's renewed chain once, bob's trial; not cy's refund, dan's upgraded period or eve's expired one")
        let revenue = overview.revenue.reduce(Int64(0)) { $0 + $1.milliunits }
        #expect(revenue == 6 * 1990, "every purchase in the range, the refunded one too")
        #expect(overview.refunds.map(\.milliunits) == [1990])
        #expect(overview.refunds.map(\.day) == [DashboardDays.label(F.day(36))])
        // MRR leaves the trial out: ann's one paid month at the catalog's 1.99.
        let mrr = MonthlyRecurringRevenue.compute(overview.products, catalog: F.catalog)
        #expect(mrr.amounts.map(\.currency) == ["USD"])
        #expect(mrr.amounts.map(\.amount) == [Decimal(string: "1.99")!])
    }

    /// "A live subscription" is TallyCore's rule; the stores' `livePeriod` SQL restates it and is held to it here: over
    /// seeded random histories (renewals, refunds before and after now, upgraded periods, periods bought later,
    /// gaps), the overview counts, per product, exactly the customers whose `CustomerState` says `subscribed`.
    @Test(arguments: StoreKind.tested) func theLiveCountIsTheCustomerStatesSubscribed(_ kind: StoreKind) throws {
        let (database, store) = try Self.open(kind)
        defer { withExtendedLifetime(database) {} }
        var random = SeededGenerator(seed: 0x7A11)
        let now = F.day(120)
        var subscribed = 0
        for customer in 0..<150 {
            let chain = "c\(customer)"
            let first = Double(Int.random(in: 0...150, using: &random))
            var transactions: [StoredTransaction] = []
            var from = first
            for period in 0..<Int.random(in: 1...4, using: &random) {
                let revoked: Date? = Int.random(in: 0..<8, using: &random) == 0
                    ? F.day(from + Double(Int.random(in: 0...40, using: &random))) : nil
                let upgraded: Bool? = Int.random(in: 0..<10, using: &random) == 0 ? true : nil
                transactions.append(Self.transaction("\(chain)-\(period)", original: chain, from: F.day(from),
                                                     upgraded: upgraded, revokedAt: revoked))
                from += Int.random(in: 0..<6, using: &random) == 0 ? 45 : 30  // now and then a lapse between periods
            }
            _ = try store.record(transactions, for: "u\(customer)", policy: .transfer, at: now)
            let record = try store.customerState("u\(customer)")
            let state = CustomerState(catalog: F.catalog, configuration: F.configuration, history: record.purchaseHistory,
                                      nets: record.nets, at: now)
            subscribed += state.subscriptions.filter { $0.status == .subscribed && $0.productId == "app.pro.month" }.count
        }
        #expect(subscribed > 20 && subscribed < 130, "the histories mix live and lapsed customers: \(subscribed)")
        let overview = try store.dashboardOverview(days: DashboardDays(count: 7, endingAt: now), now: now)
        #expect(overview.products.map(\.productId) == ["app.pro.month"])
        #expect(overview.products.first?.active == subscribed)
    }

    @Test(arguments: StoreKind.tested) func billingRetryAndGraceCountWhatTheCustomerStateSays(_ kind: StoreKind) throws {
        let (database, store) = try Self.open(kind)
        defer { withExtendedLifetime(database) {} }
        let now = F.day(40)
        let chains = [("ann", "g1", F.day(45) as Date?), ("bob", "r1", nil), ("cy", "x1", F.day(39))]
        for (customer, chain, grace) in chains {
            let period = Self.transaction(chain, original: chain, from: F.day(5))  // expired on day 35
            _ = try store.record([period], for: customer, policy: .transfer, at: now)
            let renewal = RenewalInfo(originalTransactionId: chain, productId: "app.pro.month", isInBillingRetryPeriod: true,
                                      gracePeriodExpiresDate: grace, signedDate: F.day(36))
            _ = try store.recordNotification(StoredNotification(
                notificationUUID: "n-\(chain)", notificationType: "DID_FAIL_TO_RENEW", subtype: grace == nil ? nil : "GRACE_PERIOD",
                signedDate: F.day(36), signedPayload: "jws.n-\(chain)", transaction: period, renewalInfo: renewal,
                appliesFacts: true), at: now)
        }
        var statuses: [SubscriptionState] = []
        for (customer, _, _) in chains {
            let record = try store.customerState(customer)
            let state = CustomerState(catalog: F.catalog, configuration: F.configuration, history: record.purchaseHistory,
                                      nets: record.nets, at: now)
            statuses += state.subscriptions.map(\.status)
        }
        #expect(statuses.sorted { $0.rawValue < $1.rawValue } == [.inBillingRetry, .inBillingRetry, .inGracePeriod])
        let overview = try store.dashboardOverview(days: DashboardDays(count: 7, endingAt: now), now: now)
        #expect(overview.inGracePeriod == statuses.filter { $0 == .inGracePeriod }.count)
        #expect(overview.inBillingRetry == statuses.filter { $0 == .inBillingRetry }.count)
        #expect(overview.products.isEmpty, "no period in force")
        let notifications = try store.latestNotifications(limit: 2)
        #expect(notifications.map(\.notificationUUID) == ["n-x1", "n-r1"], "newest first, at most the limit")
        #expect(notifications.first?.appUserId == "cy")
    }

    @Test(arguments: StoreKind.tested) func listsPageNewestFirstWithTiesByIdAndFiltersKept(_ kind: StoreKind) throws {
        let (database, store) = try Self.open(kind)
        defer { withExtendedLifetime(database) {} }
        // Three bought at one moment (ties go by transaction id, as bytes, greater first), a NUL id among them.
        let purchases: [(String, Double, Date?)] = [("p1", 1, nil), ("p2", 2, F.day(3)), ("p3", 2, nil), ("p\u{0}", 2, F.day(4)),
                                                    ("p4", 3, nil), ("p5", 4, F.day(5))]
        for (id, day, revoked) in purchases {
            _ = try store.record([Self.transaction(id, original: id, from: F.day(day), revokedAt: revoked)], for: "u-\(id)",
                                 policy: .transfer, at: F.day(6))
            _ = try store.recordNotification(StoredNotification(
                notificationUUID: "n-\(id)", notificationType: "SUBSCRIBED", subtype: nil, signedDate: F.day(day),
                signedPayload: "jws.n-\(id)", transaction: nil, renewalInfo: nil, appliesFacts: false), at: F.day(6))
        }
        func pages(_ filter: DashboardTransactionFilter, limit: Int) throws -> [[String]] {
            var all: [[String]] = [], before: DashboardListPosition?
            while true {
                let page = try store.latestTransactions(filter, before: before, limit: limit)
                if page.isEmpty { return all }
                all.append(page.map(\.transactionId))
                before = page.last?.position
            }
        }
        let newestFirst = ["p5", "p4", "p3", "p2", "p\u{0}", "p1"]
        #expect(try store.latestTransactions(.init(), limit: 10).map(\.transactionId) == newestFirst)
        #expect(try pages(.init(), limit: 2) == [["p5", "p4"], ["p3", "p2"], ["p\u{0}", "p1"]], "a tie split across pages")
        #expect(try pages(.init(), limit: 4).joined().map { $0 } == newestFirst)
        #expect(try pages(.init(refunded: true), limit: 1) == [["p5"], ["p2"], ["p\u{0}"]], "the filter holds on every page")
        var notifications: [[String]] = [], before: DashboardListPosition?
        while true {
            let page = try store.latestNotifications(before: before, limit: 4)
            if page.isEmpty { break }
            notifications.append(page.map(\.notificationUUID))
            before = page.last?.position
        }
        #expect(notifications == [["n-p5", "n-p4", "n-p\u{0}", "n-p3"], ["n-p2", "n-p1"]], "newest received first")
    }

    @Test(arguments: StoreKind.tested) func searchMatchesIdsExactlyAndAppUserIdsByBytePrefix(_ kind: StoreKind) throws {
        let (database, store) = try Self.open(kind)
        defer { withExtendedLifetime(database) {} }
        _ = try store.mintAccountToken(for: "café", candidate: "11111111-2222-3333-4444-555555555555")
        _ = try store.record([F.coins("t1", token: "11111111-2222-3333-4444-555555555555")], for: "café", policy: .transfer,
                             at: F.start)
        _ = try store.record([F.coins("t2")], for: "cafe\u{301}", policy: .transfer, at: F.start)
        #expect(try store.searchCustomers("t1", limit: 10).map(\.appUserId) == ["café"])
        #expect(try store.searchCustomers("T1", limit: 10).isEmpty, "ids compare as bytes")
        #expect(try store.searchCustomers("11111111-2222-3333-4444-555555555555", limit: 10).map(\.matchedBy) == ["appAccountToken"])
        #expect(try store.searchCustomers("caf", limit: 10).count == 2)
        #expect(try store.searchCustomers("café", limit: 10).map(\.appUserId) == ["café"], "NFC is not NFD")
        #expect(try store.searchCustomers("caf", limit: 1).count == 1)
    }

    @Test func customersStoredBeforeMigration6AreFirstSeenAtTheirFirstWrite() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try directory.open()
            _ = try store.record([F.coins("t1", at: F.day(2))], for: "u1", policy: .transfer, at: F.day(2))
            _ = try store.record([F.coins("t2", at: F.day(5))], for: "u1", policy: .transfer, at: F.day(5))
        }
        do {  // Back to schema 5 (nor schema 7's facts version).
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
            try connection.execute("PRAGMA user_version = 5")
        }
        let reopened = try directory.open()
        let overview = try reopened.dashboardOverview(days: DashboardDays(count: 7, endingAt: F.day(6)), now: F.day(6))
        #expect(overview.newCustomers == [DashboardDays.label(F.day(2)): 1])
    }

    /// What `dashboardOverview` says of the rows ``seedWithNULs(_:)`` writes, at day 6 over 7 days; customers are
    /// first seen at their first write when back-filled (when written, at the database's clock instead).
    private static func expectSeededOverview(_ store: any DashboardStore, backfilled: Bool, _ comment: Comment) throws {
        let overview = try store.dashboardOverview(days: DashboardDays(count: 7, endingAt: F.day(6)), now: F.day(6))
        #expect(overview.products == [.init(productId: "app.pro.month", active: 1, trials: 0)], comment)
        #expect(overview.revenue.map(\.milliunits) == [1990, 2990], comment)
        #expect(overview.refunds.map(\.day) == [DashboardDays.label(F.day(4))], comment)
        #expect(overview.inBillingRetry == 1 && overview.inGracePeriod == 0, comment)
        guard backfilled else { return }
        #expect(overview.newCustomers == [DashboardDays.label(F.day(1)): 1, DashboardDays.label(F.day(2)): 1,
                                          DashboardDays.label(F.day(3)): 1], comment)
    }

    /// A live subscription, a refunded one whose ids hold a NUL byte (its JSON payload holds `\u0000`, which
    /// PostgreSQL's JSON functions refuse), and a chain with a NUL byte in billing retry.
    private static func seedWithNULs(_ store: any CustomerStore) throws {
        _ = try store.record([transaction("s1", original: "s1", from: F.day(2))], for: "u1", policy: .transfer, at: F.day(2))
        _ = try store.record([transaction("n\u{0}1", original: "n\u{0}1", from: F.day(3), revokedAt: F.day(4), price: 2990)],
                             for: "u\u{0}2", policy: .transfer, at: F.day(3))
        let period = transaction("r\u{0}", original: "r\u{0}", from: F.day(-35), price: 990)
        _ = try store.record([period], for: "u3", policy: .transfer, at: F.day(1))
        _ = try store.recordNotification(StoredNotification(
            notificationUUID: "n-r", notificationType: "DID_FAIL_TO_RENEW", subtype: nil, signedDate: F.day(1),
            signedPayload: "jws.n-r", transaction: period,
            renewalInfo: RenewalInfo(originalTransactionId: "r\u{0}", productId: "app.pro.month",
                                     isInBillingRetryPeriod: true, signedDate: F.day(1)),
            appliesFacts: true), at: F.day(1))
    }

    @Test(.enabled(if: PostgresTestDatabase.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
    func postgresRowsStoredBeforeMigration3AreFilledIncludingPayloadsWithNULs() throws {
        let database = try StoreUnderTest(.postgres)
        let url = try #require(database.url, "a PostgreSQL store has a URL")
        do {
            let store = try database.open()
            try Self.seedWithNULs(store)
            try Self.expectSeededOverview(try #require(store as? any DashboardStore), backfilled: false, "as written")
            #expect(try (store as? any DashboardStore)?.searchCustomers("u\u{0}", limit: 5).map(\.appUserId) == ["u\u{0}2"])
        }
        do {  // Back to schema 2 (migrations 3 and 4 undone).
            let connection = try PostgresConnection(url: url, connectTimeoutSeconds: 5)
            try connection.executeScript(SchemaUndo.postgresSupersession)
            try connection.executeScript("""
                DROP INDEX customers_by_first_seen, transactions_by_purchase, transactions_by_revocation, transactions_live,
                    transactions_by_product, renewal_infos_in_billing_retry;
                ALTER TABLE customers DROP COLUMN first_seen_at, DROP COLUMN state_version, DROP COLUMN state_fingerprint,
                    DROP COLUMN state_from_ms, DROP COLUMN state_until_ms, DROP COLUMN state_body, DROP COLUMN facts_version;
                ALTER TABLE transactions DROP COLUMN product_id, DROP COLUMN purchase_ms, DROP COLUMN expires_ms,
                    DROP COLUMN revocation_ms, DROP COLUMN price, DROP COLUMN currency, DROP COLUMN offer_type,
                    DROP COLUMN is_upgraded;
                ALTER TABLE renewal_infos DROP COLUMN in_billing_retry, DROP COLUMN grace_expires_ms;
                UPDATE tally_schema SET version = 2;
                """)
        }
        let store = try database.open()
        let reopened = try #require(store as? any DashboardStore)
        try Self.expectSeededOverview(reopened, backfilled: true, "filled by migration 3")
        let record = try store.customerState("u1")
        #expect(record.version > 0 && record.factsVersion == record.version, "migration 5 starts each facts version at the version")
    }
}

