import Foundation
import TallyCore
@testable import TallyServer
import TallyStorage
import Testing

private typealias F = StoreFixtures

/// ``TransferLimit`` on both stores: a ping-pong rewrites one transfer row, the limit counts its moves, and the
/// hour's window frees the chain again.
@Suite("Customer store (SQLite and PostgreSQL): transfers per chain per hour")
struct StoreTransferLimitTests {
    @Test(arguments: StoreKind.tested) func aPingPongRewritesOneRowUntilTheLimitThenTheHourFreesTheChain(
        _ kind: StoreKind
    ) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open(transferLimit: TransferLimit(perChainPerHour: 3))
        let copy = F.period("p1", original: "p1", month: 0)
        _ = try store.record([copy], for: "u1", policy: .transfer, at: F.start)
        // Three moves a minute apart: u1 → u2 → u1 → u2, one row for the pair.
        for (minute, customer) in ["u2", "u1", "u2"].enumerated() {
            let outcome = try store.record([copy], for: customer, policy: .transfer,
                                           at: F.start.addingTimeInterval(Double(minute + 1) * 60))
            #expect(outcome.transfers.map(\.toAppUserId) == [customer])
        }
        let rows = try store.customer("u1").transfers
        #expect(rows == [OwnershipTransfer(originalTransactionId: "p1", fromAppUserId: "u1", toAppUserId: "u2",
                                           date: F.start.addingTimeInterval(180))], "\(rows)")
        // The fourth within the hour: refused, nothing moves, for u1 and for a third customer alike.
        for customer in ["u1", "u3"] {
            let refused = try store.record([copy], for: customer, policy: .transfer, at: F.start.addingTimeInterval(240))
            #expect(refused.transfers.isEmpty)
            #expect(refused.kept == ["p1"] && refused.transferLimited == ["p1"])
            // The row's first move's hour passes when the row's date does: it was last rewritten at 3 minutes.
            #expect(refused.transferAllowedAgain == F.start.addingTimeInterval(180 + TransferLimit.window))
        }
        #expect(try store.customer("u2").transactions.map(\.transaction.transactionId) == ["p1"])
        #expect(try store.customer("u3").transactions.isEmpty)
        // An hour after the last move the chain may move again: a new row for the new pair.
        let later = F.start.addingTimeInterval(180 + TransferLimit.window + 1)
        let moved = try store.record([copy], for: "u3", policy: .transfer, at: later)
        #expect(moved.transfers.map(\.fromAppUserId) == ["u2"])
        #expect(try store.customer("u2").transfers.count == 2)
        #expect(try store.customer("u3").transactions.map(\.transaction.transactionId) == ["p1"])
    }
}
