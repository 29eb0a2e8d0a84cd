import Foundation
import TallyCore
import Testing
@testable import TallyServer

private typealias F = StoreFixtures

@Suite("SQLite store: the dashboard's queries")
struct StoreDashboardTests {
    private static func transaction(_ id: String, original: String, from: Date, days: Double = 30,
                                    offer: OfferType? = nil, upgraded: Bool? = nil, revokedAt: Date? = nil,
                                    price: Int64 = 1990) -> StoredTransaction {
        F.signed(Transaction(
            transactionId: id, originalTransactionId: original, productId: "app.pro.month",
            subscriptionGroupIdentifier: "pro", purchaseDate: from, expiresDate: from.addingTimeInterval(days * 86_400),
            type: .autoRenewable, signedDate: from, revocationReason: revokedAt.map { _ in .appIssue },
            revocationDate: revokedAt, isUpgraded: upgraded, offerType: offer, currency: "USD", price: price))
    }

    @Test func aChainCountsOnceWhileAPeriodIsInForceAndNotWhenRevokedOrUpgraded() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.open()
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

    @Test func billingRetryAndGraceCountWhatTheCustomerStateSays() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.open()
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
        var statuses: [SubscriptionStatus] = []
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

    @Test func searchMatchesIdsExactlyAndAppUserIdsByBytePrefix() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.open()
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
        do {  // Back to schema 5.
            let connection = try SQLiteConnection(path: directory.database)
            for index in ["customers_by_first_seen", "transactions_by_purchase", "transactions_by_revocation",
                          "transactions_live", "transactions_by_product"] {
                try connection.execute("DROP INDEX \(index)")
            }
            for column in ["product_id", "type", "purchase_ms", "expires_ms", "revocation_ms", "price", "currency",
                           "offer_type", "is_upgraded"] {
                try connection.execute("ALTER TABLE transactions DROP COLUMN \(column)")
            }
            try connection.execute("ALTER TABLE customers DROP COLUMN first_seen_at")
            try connection.execute("PRAGMA user_version = 5")
        }
        let reopened = try directory.open()
        let overview = try reopened.dashboardOverview(days: DashboardDays(count: 7, endingAt: F.day(6)), now: F.day(6))
        #expect(overview.newCustomers == [DashboardDays.label(F.day(2)): 1])
    }
}
