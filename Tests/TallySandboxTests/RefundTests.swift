import Foundation
import Testing
import TallyCore
@testable import TallySandbox

@Suite("Sandbox refunds")
struct RefundTests {
    @Test("a refund adds revocationDate and is delivered again as unfinished to every device")
    func refundNonConsumable() throws {
        var sandbox = Market.sandbox()
        let bought = try sandbox.purchase(Market.premium, device: "iphone").requireTransaction()
        _ = try sandbox.restore(device: "ipad")
        sandbox.finish(transactionId: bought.transactionId, device: "iphone")
        #expect(sandbox.unfinished(device: "iphone").isEmpty)

        sandbox.advance(by: try SandboxDuration(parsing: "2d"))
        let refunded = try sandbox.refund(transactionId: bought.transactionId, reason: .appIssue)
        let refundedAt = Market.date(Market.start, plus: 2, .day)
        #expect(refunded.transactionId == bought.transactionId)
        #expect(refunded.revocationDate == refundedAt)
        #expect(refunded.revocationReason == .appIssue)
        #expect(refunded.revocationType == .refundFull)
        #expect(refunded.signedDate == refundedAt)
        #expect(sandbox.transactions() == [refunded])
        #expect(sandbox.unfinished(device: "iphone") == [refunded])
        #expect(sandbox.unfinished(device: "ipad") == [refunded])
        #expect(try sandbox.restore(device: "ipad").isEmpty)

        let rebought = try sandbox.purchase(Market.premium).requireTransaction()
        #expect(rebought.transactionId != bought.transactionId)
        do {
            _ = try sandbox.refund(transactionId: bought.transactionId)
            Issue.record("refunding twice should fail")
        } catch {
            #expect(error.code == .alreadyResolved)
        }
        do {
            _ = try sandbox.refund(transactionId: "1")
            Issue.record("an unknown transaction should fail")
        } catch {
            #expect(error.code == .unknownTransaction)
        }
    }

    @Test("refunding a subscription revokes it and turns auto-renew off")
    func refundSubscription() throws {
        var sandbox = Market.sandbox()
        let sub = try sandbox.purchase(Market.proMonthly).requireTransaction()
        let refunded = try sandbox.refund(transactionId: sub.transactionId)
        #expect(refunded.revocationDate == Market.start)
        #expect(sandbox.renewalInfos().first?.autoRenewStatus == .off)
        #expect(sandbox.state().subscriptions.first?.status == .revoked)
        sandbox.advance(by: try SandboxDuration(parsing: "2M"))
        #expect(sandbox.transactions().count == 1)
        #expect(sandbox.events.contains { $0.kind == .refunded && $0.transactionId == sub.transactionId })
    }
}
