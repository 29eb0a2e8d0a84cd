import Foundation
import TallyCore
import Testing
@testable import TallyServer

/// `GET /v1/customers/{id}` on a store that keeps encoded states (PostgreSQL): the state kept beside the
/// customer's row is served, without reading the record, only while it is still right.
@Suite("Customer states kept in the store")
struct KeptStateTests {
    private static let start = ServerFixture.start

    /// Lets the fixture's in-memory cache (``EntitlementAPI/maximumCacheAge``) lapse, so the next read goes to the store.
    private func pastTheCache(_ fixture: ServerFixture) {
        fixture.clock.advance(by: EntitlementAPI.maximumCacheAge + 1)
    }

    @Test func aKeptStateIsServedUntilAWriteOrANotificationChangesTheCustomer() throws {
        let fixture = try ServerFixture.make(.postgres)
        let monthly = Purchases.monthly("6001", original: "6001", at: Self.start.addingTimeInterval(-86_400),
                                        expires: Self.start.addingTimeInterval(20 * 86_400))
        #expect(try fixture.post(monthly, for: "k").status == 200)
        pastTheCache(fixture)
        #expect(fixture.customer("k").features == ["plus", "pro"], "computed from the record and kept")
        let reads = fixture.store.reads
        pastTheCache(fixture)
        #expect(fixture.customer("k").features == ["plus", "pro"])
        #expect(fixture.store.reads == reads, "served from the kept state, not from the record")

        #expect(try fixture.post(Purchases.coins("6002", at: Self.start), for: "k").status == 200)
        let afterPost = fixture.store.reads
        pastTheCache(fixture)
        #expect(fixture.customer("k").balance("coins") == "10", "a post moves the version")
        #expect(fixture.store.reads == afterPost + 1)

        pastTheCache(fixture)
        let refunded = monthly.signed(fixture.clock.now)
        var revoked = refunded
        revoked.revocationDate = fixture.clock.now
        revoked.revocationReason = .other
        #expect(try fixture.notify(.refund, signed: fixture.clock.now, transaction: revoked).result == "applied")
        let afterNotification = fixture.store.reads
        pastTheCache(fixture)
        let after = fixture.customer("k")
        #expect(after.features.isEmpty, "a notification moves the version too: \(after.text)")
        #expect(fixture.store.reads == afterNotification + 1)
    }

    @Test func aKeptStateEndsWhenTheStateChangesByItself() throws {
        let fixture = try ServerFixture.make(.postgres)
        let expires = Self.start.addingTimeInterval(3_600)
        let monthly = Purchases.monthly("6010", original: "6010", at: Self.start.addingTimeInterval(-86_400),
                                        expires: expires)
        #expect(try fixture.post(monthly, for: "e").status == 200)
        pastTheCache(fixture)
        #expect(fixture.customer("e").features == ["plus", "pro"])
        let reads = fixture.store.reads
        fixture.clock.set(expires.addingTimeInterval(-1))
        #expect(fixture.customer("e").features == ["plus", "pro"])
        #expect(fixture.store.reads == reads, "still right a second before the expiry")
        fixture.clock.set(expires.addingTimeInterval(0.001))
        let after = fixture.customer("e")
        #expect(after.features.isEmpty)
        #expect(after.subscription["status"] as? String == "expired")
        #expect(fixture.store.reads == reads + 1, "computed again at the expiry, with no write")
    }

    /// Servers of one database run one offerings document, but not at the same instant: one still runs version 1's
    /// mapping (within its `offerings.refreshSeconds`) while another serves version 2's. Neither serves the state the
    /// other kept: the mapping is in the fingerprint.
    @Test(.enabled(if: PostgresTestDatabase.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
    func aStateKeptUnderOtherRulesIsComputedAgain() throws {
        let database = try StoreUnderTest(.postgres)
        let first = try ServerFixture(database: database, offerings: OfferingsSettings(refreshSeconds: 86_400))
        let second = try ServerFixture(database: database)
        #expect(try first.post(Purchases.premium("6020", at: Self.start.addingTimeInterval(-60)), for: "r").status == 200)
        pastTheCache(first)
        #expect(first.customer("r").features == ["no-ads", "premium"])
        let firstReads = first.store.reads
        let live = second.send("GET", "/v1/offerings/document")
        var document = try #require(live.json["document"] as? [String: Any])
        var entitlements = try #require(document["entitlements"] as? [String: Any])
        entitlements["gold"] = entitlements.removeValue(forKey: "premium")
        document["entitlements"] = entitlements
        let body = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
        let saved = second.send("PUT", "/v1/offerings", body: body, headers: ["If-Match": "\"1\""])
        #expect(saved.status == 200, "\(saved.text)")
        #expect(second.customer("r").features == ["gold", "no-ads"], "the saving server computes under version 2")
        #expect(second.store.reads == 1)
        pastTheCache(first)
        #expect(first.customer("r").features == ["no-ads", "premium"], "the first still runs version 1")
        #expect(first.store.reads == firstReads + 1, "the state version 2 kept is not served here")
    }
}
