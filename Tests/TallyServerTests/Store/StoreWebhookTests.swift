import Foundation
import Testing
import TallyCore
import TallySQLite
@testable import TallyPostgres
@testable import TallyServer
@testable import TallyStorage
import TallySQLiteStore

private typealias F = StoreFixtures

/// The webhook outbox, against both stores: each write emits the events of what it did (docs/webhooks.md), in the
/// same transaction; claims keep each customer's order; retries, dead letters, replays and the counts.
@Suite("Customer store (SQLite and PostgreSQL): webhook outbox")
struct StoreWebhookTests {
    static let endpoint = "https://hooks.example/tally"

    /// A fresh store with one endpoint taking every event.
    static func open(_ kind: StoreKind, test: String = #function) throws -> (StoreUnderTest, any CustomerStore & WebhookOutbox) {
        let database = try StoreUnderTest(kind, test: test)
        let store = try database.open()
        let outbox = try #require(store as? any CustomerStore & WebhookOutbox)
        outbox.routeWebhooks(WebhookRouting([WebhookSubscription(endpoint: endpoint, types: nil)]), committed: nil)
        return (database, outbox)
    }

    /// Every event written, oldest first, as (type, customer).
    static func events(_ store: any WebhookOutbox) throws -> [(type: String, appUserId: String)] {
        try store.webhookDeliveries(.all, limit: 10_000, before: nil).reversed().map { ($0.type, $0.appUserId) }
    }

    /// The types written since `count` events.
    static func types(after count: Int, _ store: any WebhookOutbox) throws -> [String] {
        Array(try events(store).dropFirst(count).map(\.type))
    }

    static func notification(_ uuid: String, _ type: String, subtype: String? = nil, chain: String,
                             status: AutoRenewStatus = .on, at date: Date) -> StoredNotification {
        StoredNotification(notificationUUID: uuid, notificationType: type, subtype: subtype, signedDate: date,
                           signedPayload: "jws.\(uuid)",
                           renewalInfo: RenewalInfo(originalTransactionId: chain, productId: "app.pro.month",
                                                    autoRenewStatus: status, signedDate: date),
                           appliesFacts: true)
    }

    @Test(arguments: StoreKind.tested) func eachWriteEmitsTheEventsOfWhatItDidAndADuplicateNone(_ kind: StoreKind) throws {
        let (database, store) = try Self.open(kind)
        defer { withExtendedLifetime(database) {} }
        var seen = 0
        func expect(_ types: [String], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let now = try Self.types(after: seen, store)
            #expect(now == types, "\(what)", sourceLocation: sourceLocation)
            seen += now.count
        }
        _ = try store.record([F.period("p1", original: "p1", month: 0)], for: "u1", policy: .transfer, at: F.day(1))
        try expect(["INITIAL_PURCHASE"], "the chain's first period")
        _ = try store.record([F.period("p1", original: "p1", month: 0)], for: "u1", policy: .transfer, at: F.day(2))
        try expect([], "a duplicate post")
        _ = try store.record([F.period("p2", original: "p1", month: 1)], for: "u1", policy: .transfer, at: F.day(31))
        try expect(["RENEWAL"], "a new period of the chain")
        var upgrade = F.period("p3", original: "p1", month: 2).transaction
        upgrade.productId = "app.pro.year"
        _ = try store.record([F.signed(upgrade)], for: "u1", policy: .transfer, at: F.day(61))
        try expect(["PRODUCT_CHANGE"], "another product of the group in the chain")
        _ = try store.record([F.premium("n1")], for: "u1", policy: .transfer, at: F.day(1))
        try expect(["NON_RENEWING_PURCHASE"], "a non-consumable")
        _ = try store.record([F.coins("c1")], for: "u1", policy: .transfer, at: F.day(1))
        try expect(["NON_RENEWING_PURCHASE", "VIRTUAL_CURRENCY_TRANSACTION"], "coins: the purchase and the credit")
        _ = try store.spend(F.spend("s1", 30), for: "u1")
        try expect(["VIRTUAL_CURRENCY_TRANSACTION"], "a spend")
        _ = try store.spend(F.spend("s1", 30), for: "u1")
        try expect([], "the same spend again")
        var refunded = F.coins("c1").transaction
        refunded.revocationDate = F.day(2)
        refunded.signedDate = F.day(2)
        _ = try store.record([F.signed(refunded)], for: "u1", policy: .transfer, at: F.day(2))
        try expect(["REFUND", "VIRTUAL_CURRENCY_TRANSACTION"], "a refund and its claw-back")
        var reversed = refunded
        reversed.revocationDate = nil
        reversed.signedDate = F.day(3)
        _ = try store.record([F.signed(reversed)], for: "u1", policy: .transfer, at: F.day(3))
        try expect(["REFUND_REVERSED", "VIRTUAL_CURRENCY_TRANSACTION"], "a reversal gives the credit back")
        _ = try store.record([F.premium("n1")], for: "u2", policy: .transfer, at: F.day(4))
        try expect(["TRANSFER"], "the chain moved to u2")
        #expect(try Self.events(store).last?.appUserId == "u2")
        for (uuid, type, subtype, status, expected) in [
            ("n-1", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", AutoRenewStatus.off, "CANCELLATION"),
            ("n-2", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", .on, "UNCANCELLATION"),
            ("n-3", "DID_FAIL_TO_RENEW", nil, .on, "BILLING_ISSUE"),
            ("n-4", "RENEWAL_EXTENDED", nil, .on, "SUBSCRIPTION_EXTENDED"),
            ("n-5", "EXPIRED", "VOLUNTARY", .off, "EXPIRATION"),
        ] as [(String, String, String?, AutoRenewStatus, String)] {
            let index = Double(seen)
            _ = try store.recordNotification(Self.notification(uuid, type, subtype: subtype, chain: "p1", status: status,
                                                               at: F.day(70 + index)), at: F.day(70 + index))
            try expect([expected], "\(type) \(subtype ?? "")")
        }
        _ = try store.recordNotification(Self.notification("n-1", "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED",
                                                           chain: "p1", status: .off, at: F.day(90)), at: F.day(90))
        try expect([], "a duplicate notification")
        let test = WebhookEvent(id: WebhookEventId.make(), type: .test, appUserId: "tally-webhook-test", eventAt: F.day(91))
        #expect(try store.enqueueWebhookEvent(test, at: F.day(91)) == 1)
        try expect(["TEST"], "a test event")
        #expect(try Self.events(store).filter { $0.type != "TEST" && $0.type != "TRANSFER" }.allSatisfy { $0.appUserId == "u1" })
    }

    @Test(arguments: StoreKind.tested) func aPendingNotificationEmitsItsEventWhenItsChainFindsAnOwner(_ kind: StoreKind) throws {
        let (database, store) = try Self.open(kind)
        defer { withExtendedLifetime(database) {} }
        let outcome = try store.recordNotification(Self.notification("n-q", "DID_CHANGE_RENEWAL_STATUS",
                                                                     subtype: "AUTO_RENEW_DISABLED", chain: "q1",
                                                                     status: .off, at: F.day(1)), at: F.day(1))
        #expect(outcome.result == .pending)
        #expect(try Self.events(store).isEmpty, "nobody to tell yet")
        _ = try store.record([F.period("q1", original: "q1", month: 0)], for: "u9", policy: .transfer, at: F.day(2))
        #expect(try Self.events(store).map(\.type) == ["INITIAL_PURCHASE", "CANCELLATION"])
        #expect(try Self.events(store).allSatisfy { $0.appUserId == "u9" })
    }

    @Test(arguments: StoreKind.tested) func aStoredEventReadsBackAsTheEventWithAnExactPrice(_ kind: StoreKind) throws {
        let (database, store) = try Self.open(kind)
        defer { withExtendedLifetime(database) {} }
        var coins = F.coins("c1").transaction
        coins.price = 1_990
        coins.currency = "EUR"
        coins.environment = .sandbox
        _ = try store.record([F.signed(coins)], for: "u1", policy: .transfer, at: F.day(1))
        let claimed = try store.claimWebhookDeliveries(now: F.day(1), lease: 30, limit: 10)
        #expect(claimed.count == 1, "one head per customer: the credit waits behind the purchase")
        let event = try #require(claimed.first.flatMap { WebhookEvent(json: $0.body) })
        #expect(event.type == .nonRenewingPurchase)
        #expect(event.price == Decimal(string: "1.99"))
        #expect(event.currency == "EUR")
        #expect(event.environment == "Sandbox")
        #expect(event.transactionId == "c1")
        #expect(event.eventAt == F.start)
        #expect(event.id == claimed.first?.eventId)
        #expect(WebhookEvent(json: event.json) == event, "the JSON round-trips")
    }

    @Test(arguments: StoreKind.tested) func claimsKeepEachCustomersOrderThroughRetriesDeadLettersAndReplays(_ kind: StoreKind) throws {
        let (database, store) = try Self.open(kind)
        defer { withExtendedLifetime(database) {} }
        for customer in ["a", "b"] {
            for index in 0..<3 {
                _ = try store.record([F.premium("\(customer)\(index)")], for: customer, policy: .transfer, at: F.day(1))
            }
        }
        let now = F.day(2)
        var first = try store.claimWebhookDeliveries(now: now, lease: 30, limit: 10)
        #expect(first.map(\.appUserId).sorted() == ["a", "b"], "one head per customer")
        #expect(try store.claimWebhookDeliveries(now: now, lease: 30, limit: 10).isEmpty, "leased heads block their queues")
        let a = try #require(first.first { $0.appUserId == "a" })
        let b = try #require(first.first { $0.appUserId == "b" })
        #expect(try store.settleWebhookDelivery(a, .retry(at: now.addingTimeInterval(60), status: 500, error: "answered 500"), at: now))
        #expect(try store.settleWebhookDelivery(b, .delivered(status: 200), at: now))
        #expect(try store.settleWebhookDelivery(b, .delivered(status: 200), at: now) == false, "a settled claim is spent")
        first = try store.claimWebhookDeliveries(now: now, lease: 30, limit: 10)
        #expect(first.map(\.appUserId) == ["b"], "a waits for its retry; b's next is due")
        #expect(try store.nextWebhookDueDate() == now.addingTimeInterval(30), "b's lease ends first")
        let retried = try #require(try store.claimWebhookDeliveries(now: now.addingTimeInterval(61), lease: 30, limit: 10)
            .first { $0.appUserId == "a" })
        #expect(retried.eventId == a.eventId, "the same event, the same id")
        #expect(retried.attempts == 2)
        #expect(try store.settleWebhookDelivery(retried, .dead(status: nil, error: "timed out"), at: now))
        let failed = try store.webhookDeliveries(.dead, limit: 10, before: nil)
        #expect(failed.map(\.eventId) == [a.eventId])
        #expect(failed.first?.lastError == "timed out")
        var stats = try store.webhookOutboxStats(at: now.addingTimeInterval(61))
        #expect(stats.dead == 1 && stats.delivered == 1 && stats.pending == 4)
        #expect(try store.retryWebhookEvent(a.eventId, at: now.addingTimeInterval(62)) == 1)
        #expect(try store.retryWebhookEvent("evt_none", at: now) == 0)
        let again = try store.claimWebhookDeliveries(now: now.addingTimeInterval(62), lease: 30, limit: 10)
        #expect(again.contains { $0.eventId == a.eventId && $0.attempts == 1 }, "retried: due now, attempts from zero")
        stats = try store.webhookOutboxStats(at: now.addingTimeInterval(62))
        #expect(stats.dead == 0)
        #expect(try store.replayWebhookEvents(since: F.day(0), at: now.addingTimeInterval(200)) == 6)
        #expect(try store.webhookOutboxStats(at: now.addingTimeInterval(200)).pending == 6)
    }

    /// Atomicity: an event that cannot be written rolls its change back, and a change that cannot be written leaves
    /// no event (each forced by a trigger that aborts the statement, inside the write's transaction).
    @Test(arguments: StoreKind.tested) func noChangeWithoutItsEventAndNoEventWithoutItsChange(_ kind: StoreKind) throws {
        let (database, store) = try Self.open(kind)
        defer { withExtendedLifetime(database) {} }
        try Self.failInserts(into: "webhook_deliveries", database)
        #expect(throws: CustomerStoreError.self) {
            _ = try store.record([F.premium("x1")], for: "u1", policy: .transfer, at: F.day(1))
        }
        #expect(try store.customer("u1").transactions.isEmpty, "the purchase rolled back with its event")
        try Self.dropTrigger(on: "webhook_deliveries", database)
        try Self.failInserts(into: "transactions", database)
        #expect(throws: CustomerStoreError.self) {
            _ = try store.record([F.premium("x2")], for: "u1", policy: .transfer, at: F.day(1))
        }
        #expect(try Self.events(store).isEmpty, "no event of a write that failed")
        try Self.dropTrigger(on: "transactions", database)
        _ = try store.record([F.premium("x3")], for: "u1", policy: .transfer, at: F.day(1))
        #expect(try Self.events(store).map(\.type) == ["NON_RENEWING_PURCHASE"])
    }

    @Test(arguments: StoreKind.tested) func noEventsAreWrittenWhileNoEndpointIsRouted(_ kind: StoreKind) throws {
        let (database, store) = try Self.open(kind)
        defer { withExtendedLifetime(database) {} }
        store.routeWebhooks(WebhookRouting(), committed: nil)
        _ = try store.record([F.coins("c1")], for: "u1", policy: .transfer, at: F.day(1))
        #expect(try Self.events(store).isEmpty)
        store.routeWebhooks(WebhookRouting([WebhookSubscription(endpoint: Self.endpoint, types: [.refund])]), committed: nil)
        _ = try store.record([F.coins("c2")], for: "u1", policy: .transfer, at: F.day(1))
        #expect(try Self.events(store).isEmpty, "the endpoint takes refunds only")
    }

    /// Makes every insert into `table` fail, from another connection.
    static func failInserts(into table: String, _ database: StoreUnderTest) throws {
        try run(database, sqlite: "CREATE TRIGGER fail_\(table) BEFORE INSERT ON \(table) BEGIN SELECT RAISE(ABORT, 'injected'); END",
                postgres: """
                    CREATE OR REPLACE FUNCTION fail_insert() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected'; END $$
                    LANGUAGE plpgsql;
                    CREATE TRIGGER fail_\(table) BEFORE INSERT ON \(table) FOR EACH ROW EXECUTE FUNCTION fail_insert();
                    """)
    }

    static func dropTrigger(on table: String, _ database: StoreUnderTest) throws {
        try run(database, sqlite: "DROP TRIGGER fail_\(table)", postgres: "DROP TRIGGER fail_\(table) ON \(table)")
    }

    /// Runs the store's statement on a connection of its own.
    static func run(_ database: StoreUnderTest, sqlite: String, postgres: String) throws {
        if let path = database.sqlitePath {
            try SQLiteDatabase(path: path, create: false, busyTimeoutMilliseconds: 5_000, describing: path).execute(sqlite)
        } else if let url = database.url {
            try PostgresConnection(url: url, connectTimeoutSeconds: 5).executeScript(postgres)
        }
    }
}
