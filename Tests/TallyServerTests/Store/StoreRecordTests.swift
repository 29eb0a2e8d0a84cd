import Foundation
import TallyCore
@testable import TallyServer
import TallyStorage
import Testing

private typealias F = StoreFixtures

@Suite("Customer store (SQLite and PostgreSQL): recording transactions")
struct StoreRecordTests {
    @Test(arguments: StoreKind.tested) func firstPostInsertsAndBumpsTheVersion(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        #expect(try store.customer("u1") == CustomerRecord(appUserId: "u1"))
        let outcome = try store.record([F.coins("t1"), F.premium("t2")], for: "u1", policy: .transfer, at: F.start)
        #expect(outcome == RecordOutcome(inserted: ["t1", "t2"]))
        let record = try store.customer("u1")
        #expect(record.version == 1)
        #expect(Set(record.transactions) == [F.coins("t1"), F.premium("t2")])
        #expect(F.balance(record) == 100)
    }

    @Test(arguments: StoreKind.tested) func theSamePostTwiceChangesNothing(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        _ = try store.record([F.coins("t1")], for: "u1", policy: .transfer, at: F.start)
        let before = try store.customer("u1")
        let again = try store.record([F.coins("t1")], for: "u1", policy: .transfer, at: F.day(1))
        #expect(again == RecordOutcome(unchanged: ["t1"]))
        #expect(try store.customer("u1") == before)
        #expect(before.version == 1)
    }

    @Test(arguments: StoreKind.tested) func aRepeatInsideOnePostIsUnchanged(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        let outcome = try store.record([F.coins("t1"), F.coins("t1")], for: "u1", policy: .transfer, at: F.start)
        #expect(outcome == RecordOutcome(inserted: ["t1"], unchanged: ["t1"]))
        #expect(try store.customer("u1").transactions.count == 1)
    }

    @Test(arguments: StoreKind.tested) func subMillisecondDatesStillCompareAsTheSameContent(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        let fine = F.signed(StoreTransaction(transactionId: "t1", productId: "app.premium",
                                        purchaseDate: F.start.addingTimeInterval(0.000_3), type: .nonConsumable))
        #expect(try store.record([fine], for: "u1", policy: .transfer, at: F.start).inserted == ["t1"])
        #expect(try store.record([fine], for: "u1", policy: .transfer, at: F.start).unchanged == ["t1"])
        #expect(try store.customer("u1").version == 1)
    }

    @Test(arguments: StoreKind.tested) func aRefundedCopyReplacesTheStoredOne(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        _ = try store.record([F.premium("t1")], for: "u1", policy: .transfer, at: F.start)
        let refunded = F.premium("t1", revokedAt: F.day(3))
        let outcome = try store.record([refunded], for: "u1", policy: .transfer, at: F.day(3))
        #expect(outcome == RecordOutcome(updated: ["t1"]))
        let record = try store.customer("u1")
        #expect(record.transactions == [refunded])
        #expect(record.version == 2)
        #expect(record.transactions.first?.transaction.revocationDate == F.day(3))
    }

    @Test(arguments: StoreKind.tested) func receiptRecordsKeepTheirSourceAndNoSignature(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        let receipt = StoredTransaction(transaction: F.premium("t1").transaction, source: .receipt)
        _ = try store.record([receipt], for: "u1", policy: .transfer, at: F.start)
        #expect(try store.customer("u1").transactions == [receipt])
    }

    /// A receipt's in-app record carries no `signedDate`: it never replaces a signed copy, and a signed copy
    /// replaces it (TallyCore's `StoreTransaction.supersedes`), on both stores whatever the order.
    @Test(arguments: StoreKind.tested) func aReceiptRecordNeverReplacesASignedCopy(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        var unsigned = F.premium("t1").transaction
        unsigned.signedDate = nil
        let receipt = StoredTransaction(transaction: unsigned, source: .receipt)
        let signed = F.premium("t1", revokedAt: F.day(2))  // signed at F.start, and refunded since
        _ = try store.record([signed], for: "u1", policy: .transfer, at: F.start)
        let replay = try store.record([receipt], for: "u1", policy: .transfer, at: F.day(3))
        #expect(replay.unchanged == ["t1"] && replay.updated.isEmpty, "\(replay)")
        #expect(try store.customer("u1").transactions.first?.transaction.revocationDate == F.day(2),
                "an old receipt does not undo the refund")

        var unsignedSecond = unsigned
        unsignedSecond.transactionId = "t2"
        unsignedSecond.originalTransactionId = "t2"
        let receiptFirst = StoredTransaction(transaction: unsignedSecond, source: .receipt)
        _ = try store.record([receiptFirst], for: "u3", policy: .transfer, at: F.start)
        let upgraded = try store.record([F.premium("t2")], for: "u3", policy: .transfer, at: F.day(1))
        #expect(upgraded.updated == ["t2"], "the signed copy replaces the receipt's: \(upgraded)")
        #expect(try store.customer("u3").transactions.first?.source == .signedTransaction)
    }

    @Test(arguments: StoreKind.tested) func customersAreSeparate(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        _ = try store.record([F.coins("t1")], for: "u1", policy: .transfer, at: F.start)
        _ = try store.record([F.coins("t2")], for: "u2", policy: .transfer, at: F.start)
        #expect(try store.customer("u1").transactions.map(\.transaction.transactionId) == ["t1"])
        #expect(try store.customer("u2").transactions.map(\.transaction.transactionId) == ["t2"])
    }
}
