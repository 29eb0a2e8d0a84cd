import Foundation
import TallyCore
@testable import TallyServer
import TallyStorage
import Testing

private typealias F = StoreFixtures

/// `recordReadingState` returns the state record read inside the write's own transaction: it must be exactly
/// what `customerState` reads after the COMMIT, whatever the write did (insert, repeat, transfer, keep).
@Suite("Customer store (SQLite and PostgreSQL): the state record a write returns")
struct StoreRecordStateTests {
    private func sorted(_ record: CustomerRecord) -> CustomerRecord {
        var record = record
        record.transactions.sort { $0.transaction.transactionId.utf8.lexicographicallyPrecedes($1.transaction.transactionId.utf8) }
        return record
    }

    @Test(arguments: StoreKind.tested) func theReturnedStateIsTheStateAfterTheCommit(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        let posts: [(String, [StoredTransaction], OwnershipPolicy)] = [
            ("u1", [F.coins("c1"), F.premium("n1")], .transfer),  // first post: customer created
            ("u1", [F.coins("c1")], .transfer),  // a repeat: nothing changes
            ("u1", [F.period("p1", original: "p1", month: 0)], .transfer),
            ("u2", [F.period("p2", original: "p1", month: 1)], .transfer),  // the chain moves to u2
            ("u1", [F.period("p3", original: "p1", month: 2)], .keep),  // kept with u2
            ("u1", [F.premium("n1", revokedAt: F.day(2))], .transfer),  // a refund
            ("u3", [F.coins("c1")], .transfer),  // a coin purchase stays with u1
        ]
        for (customer, transactions, policy) in posts {
            let (outcome, state) = try store.recordReadingState(transactions, for: customer, policy: policy, at: F.start)
            #expect(sorted(state) == sorted(try store.customerState(customer)), "after posting for \(customer): \(outcome)")
        }
        let (_, u1) = try store.recordReadingState([], for: "u1", policy: .transfer, at: F.start)
        #expect(u1.nets == ["coins": 100])
        #expect(u1.version == (try store.customerState("u1")).version)
    }

    @Test(arguments: StoreKind.tested) func aFailedWriteReturnsNoState(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        _ = try store.record([F.coins("c1")], for: "u1", policy: .transfer, at: F.start)
        var broken = F.coins("c2")
        broken.transaction.unknownFields = ["bad": .number(.nan)]  // JSONEncoder refuses NaN: nothing is written
        #expect(throws: CustomerStoreError.self) {
            _ = try store.recordReadingState([broken], for: "u1", policy: .transfer, at: F.start)
        }
        #expect(try store.customerState("u1").version == 1)
    }
}
