import Foundation
import TallyCore
@testable import TallyServer
import TallyStorage
import Testing

private typealias F = StoreFixtures

@Suite("Customer store (SQLite and PostgreSQL): reconciliation and the back-fill cursor")
struct StoreReconcileTests {
    private func renewal(_ chain: String, signed: Date, willRenew: Bool) -> StoredRenewalInfo {
        StoredRenewalInfo(renewalInfo: RenewalInfo(originalTransactionId: chain, productId: "app.pro.month",
                                                   autoRenewStatus: willRenew ? .on : .off, signedDate: signed),
                          signedRenewalInfo: nil)
    }

    @Test(arguments: StoreKind.tested) func aPageIsStoredWithItsRevisionOnceAndNewerFactsWin(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        #expect(try store.historyRevision(of: "u1") == nil)
        let first = try store.reconcile([F.period("m1", original: "m1", month: 0), F.coins("c1")],
                                        renewalInfos: [renewal("m1", signed: F.day(1), willRenew: true)],
                                        revision: "r1", for: "u1", at: F.day(1))
        #expect(Set(first.transactions.inserted) == ["m1", "c1"] && first.renewalInfosUpdated == 1, "\(first)")
        #expect(try store.historyRevision(of: "u1") == "r1")
        #expect(try store.customerState("u1").nets == ["coins": 100])

        let again = try store.reconcile([F.coins("c1")], renewalInfos: [renewal("m1", signed: F.day(0.5), willRenew: false)],
                                        revision: "r2", for: "u1", at: F.day(2))
        #expect(again.transactions.unchanged == ["c1"] && again.renewalInfosUpdated == 0,
                "the same copy and an older renewal info change nothing: \(again)")
        #expect(try store.historyRevision(of: "u1") == "r2", "the cursor still moves")
        #expect(try store.customerState("u1").nets == ["coins": 100], "credited once")
        #expect(try store.customer("u1").renewalInfos.first?.autoRenewStatus == .on)
    }

    @Test(arguments: StoreKind.tested) func aChainOfAnotherCustomerStaysWithIt(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        _ = try store.record([F.premium("p1")], for: "owner", policy: .transfer, at: F.start)
        let outcome = try store.reconcile([F.premium("p1")], renewalInfos: [], revision: nil, for: "other", at: F.day(1))
        #expect(outcome.transactions.kept == ["p1"] && outcome.transactions.transfers.isEmpty, "\(outcome)")
        #expect(try store.customer("owner").transactions.map(\.transaction.transactionId) == ["p1"])
        #expect(try store.customer("other").transactions.isEmpty)
        #expect(try store.historyRevision(of: "other") == nil, "no revision given, none stored")
    }

    @Test(arguments: StoreKind.tested) func theBackfillCursorRoundTrips(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        #expect(try store.backfillCursor() == nil)
        let cursor = BackfillCursor(start: Date(millisecondsSince1970: 1_796_000_000_123), paginationToken: "tok en/1")
        try store.saveBackfillCursor(cursor)
        #expect(try store.backfillCursor() == cursor)
        let later = BackfillCursor(start: Date(millisecondsSince1970: 1_796_100_000_000), paginationToken: nil)
        try store.saveBackfillCursor(later)
        #expect(try store.backfillCursor() == later)
        #expect(try directory.open().backfillCursor() == later, "durable: a reopened store reads it")
    }
}
