import Foundation
import Testing
import TallyCore
@testable import TallySandbox

/// Each later copy of a transaction is signed strictly after the one it replaces, even when the sandbox clock has
/// not moved: servers keep the newest `signedDate` (the revoked copy on a tie).
@Suite("Sandbox: later copies are signed after earlier ones")
struct SignedCopyTests {
    @Test("a refund and its reversal at one sandbox instant are signed 1 ms apart, each after the purchase")
    func refundThenReversalAtOneInstant() throws {
        var sandbox = Market.sandbox()
        let premium = try #require(sandbox.purchase(Market.premium, account: "bob").transaction)
        let refunded = try sandbox.refund(transactionId: premium.transactionId)
        let reversed = try sandbox.reverseRefund(transactionId: premium.transactionId)
        let dates = try [premium, refunded, reversed].map { try #require($0.signedDate).millisecondsSince1970 }
        #expect(dates[1] == dates[0] + 1)
        #expect(dates[2] == dates[1] + 1)
        #expect(reversed.revocationDate == nil)
    }

    @Test("a copy made once the clock moved is signed at the clock's time")
    func laterClockWins() {
        let previous = Date(millisecondsSince1970: 1_700_000_000_123)
        let now = Date(millisecondsSince1970: 1_700_000_005_000)
        #expect(Date.signedDate(after: previous, now: now) == now)
        #expect(Date.signedDate(after: previous, now: previous).millisecondsSince1970 == 1_700_000_000_124)
        #expect(Date.signedDate(after: nil, now: previous) == previous)
        // A clock behind the previous copy (a copy signed by another path later on the same instant) still moves on.
        #expect(Date.signedDate(after: now, now: previous).millisecondsSince1970 == 1_700_000_005_001)
    }
}
