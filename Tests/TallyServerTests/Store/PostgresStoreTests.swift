import Foundation
import TallyCore
@testable import TallyPostgres
@testable import TallyServer
import TallyStorage
import Testing

private typealias F = StoreFixtures

/// What only the PostgreSQL store does: starting without its database, refusing what libpq cannot parse.
@Suite("PostgreSQL store: opening")
struct PostgresStoreTests {
    @Test func aURLLibpqCannotParseIsRefusedAtOnce() throws {
        let error = try #require(throws: CustomerStoreError.self) {
            _ = try PostgresCustomerStore(url: "postgresql://[bad", poolSize: 1, credits: F.credits)
        }
        #expect(error.reason == .unavailable)
        #expect(error.message.contains("cannot be used"), "\(error.message)")
    }

    @Test func aStoreWhoseDatabaseIsDownStartsAndFailsEachCallQuicklyAsUnavailable() throws {
        let missing = "postgresql:///tally?host=/nonexistent-\(UUID().uuidString)"
        let store = try PostgresCustomerStore(url: missing, poolSize: 2, credits: F.credits)
        let started = Date()
        for call in 0..<3 {
            let error = try #require(throws: CustomerStoreError.self) {
                if call == 0 { try store.checkWritable() } else { _ = try store.customerState("u1") }
            }
            #expect(error.reason == .unavailable, "\(error.message)")
        }
        #expect(Date().timeIntervalSince(started) < 5, "a refused connection is not retried with waits")
    }

    @Test(.enabled(if: PostgresTestDatabase.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
    func theSQLNewerFactsRuleAgreesWithTallyCoreOnEveryOrder() throws {
        let database = try StoreUnderTest(.postgres)
        let store = try database.open()
        // Copies of one transaction: purchase, later refund, later reversal, and a same-date refund tie.
        let base = F.premium("t1").transaction
        var refund = base
        refund.revocationDate = F.day(1)
        refund.revocationReason = .appIssue
        var tieRefund = base
        tieRefund.revocationDate = F.day(2)
        tieRefund.revocationReason = .other
        var reversal = base
        reversal.signedDate = F.day(3)
        refund.signedDate = F.day(1)
        let copies = [base, refund, tieRefund, reversal]
        for order in [[0, 1, 2, 3], [3, 2, 1, 0], [1, 0, 3, 2], [2, 1, 0, 3], [0, 3, 1, 2]] {
            let user = "u-\(order.map(String.init).joined())"
            var expected: StoreTransaction?
            for index in order {
                let copy = copies[index]
                let id = "t-\(user)"
                var mine = copy
                mine.transactionId = id
                mine.originalTransactionId = id
                _ = try store.record([F.signed(mine)], for: user, policy: .transfer, at: F.start)
                expected = StoreTransaction.newest(stored: expected, incoming: mine)
            }
            let stored = try store.customer(user).transactions.map(\.transaction)
            #expect(stored.count == 1)
            #expect(stored.first?.revocationDate == expected?.revocationDate, "order \(order)")
            #expect(stored.first?.signedDate == expected?.signedDate, "order \(order)")
        }
    }
}
