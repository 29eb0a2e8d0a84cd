import Foundation
import TallyCore
import Testing
@testable import TallySandbox

/// Refund requests decided by the consumption information the app's server sent, as `--decide auto` does.
@Suite struct RefundRequestTests {
    private func coin(_ sandbox: inout Sandbox) throws -> String {
        try sandbox.purchase(Market.coins).requireTransaction().transactionId
    }

    private func info(_ sandbox: Sandbox, delivery: String = "DELIVERED", percentage: Int? = nil,
                      status: Int? = nil, preference: String? = nil) -> SandboxConsumptionInfo {
        SandboxConsumptionInfo(version: status == nil ? 2 : 1, receivedDate: sandbox.now, deliveryStatus: delivery,
                               consumptionPercentage: percentage, consumptionStatus: status,
                               refundPreference: preference, body: "{}")
    }

    /// Requests a refund of a new coin, records `consumption` (when given) and decides it by the rule.
    private func decide(_ consumption: ((Sandbox) -> SandboxConsumptionInfo)?) throws -> (SandboxRefundRequest, StoreTransaction?) {
        var sandbox = Market.sandbox()
        let id = try coin(&sandbox)
        _ = try sandbox.requestRefund(transactionId: id, reason: "FULFILLMENT_ISSUE")
        if let consumption { try sandbox.recordConsumption(transactionId: id, consumption(sandbox)) }
        let ended = try sandbox.decideRefund(transactionId: id, decision: nil)
        return (ended, sandbox.transactions().first { $0.transactionId == id })
    }

    @Test func theRuleFollowsPreferenceThenDeliveryThenConsumption() throws {
        #expect(try decide(nil).0.decision == .approve, "no information: approved")
        #expect(try decide { info($0, percentage: 0, preference: "DECLINE") }.0.decision == .decline)
        #expect(try decide { info($0, percentage: 90_000, preference: "GRANT_FULL") }.0.decision == .approve)
        #expect(try decide { info($0, delivery: "UNDELIVERED_SERVER_OUTAGE", percentage: 0) }.0.decision == .approve)
        #expect(try decide { info($0, percentage: 50_000) }.0.decision == .decline, "half consumed: declined")
        #expect(try decide { info($0, percentage: 49_999) }.0.decision == .approve)
        #expect(try decide { info($0, status: 3) }.0.decision == .decline, "v1 fully consumed")
        #expect(try decide { info($0, status: 2) }.0.decision == .approve, "v1 partially consumed")
        let (declined, kept) = try decide { info($0, percentage: 80_000) }
        #expect(declined.decidedByConsumptionInfo == true && kept?.isRevoked == false)
    }

    @Test func grantProratedRefundsTheUnconsumedPart() throws {
        let (ended, refunded) = try decide { info($0, percentage: 30_000, preference: "GRANT_PRORATED") }
        #expect(ended.decision == .approve)
        #expect(refunded?.revocationType == .refundProrated && refunded?.revocationPercentage == 70_000)
        #expect(refunded?.isRevoked == true)
        let (_, full) = try decide { info($0, percentage: 30_000, preference: "GRANT_FULL") }
        #expect(full?.revocationType == .refundFull && full?.revocationPercentage == nil)
    }

    @Test func aProratedSubscriptionRefundIsTheUnusedPartOfItsPeriod() throws {
        var sandbox = Market.sandbox()
        let bought = try sandbox.purchase(Market.proMonthly).requireTransaction()
        sandbox.advance(by: try SandboxDuration(parsing: "10d"))
        let current = try #require(sandbox.transactions().last)
        _ = try sandbox.requestRefund(transactionId: current.transactionId)
        try sandbox.recordConsumption(transactionId: current.transactionId, info(sandbox, preference: "GRANT_PRORATED"))
        _ = try sandbox.decideRefund(transactionId: current.transactionId, decision: nil)
        let refunded = try #require(sandbox.transactions().last)
        let expires = try #require(current.expiresDate)
        let unused = expires.timeIntervalSince(sandbox.now) / expires.timeIntervalSince(current.purchaseDate)
        #expect(bought.originalTransactionId == refunded.originalTransactionId)
        #expect(refunded.revocationType == .refundProrated)
        #expect(refunded.revocationPercentage == Int((unused * 100_000).rounded()), "\(refunded.revocationPercentage ?? -1)")
        #expect((1...99_999).contains(refunded.revocationPercentage ?? 0))
    }

    @Test func informationFromBeforeTheRequestDoesNotDecideIt() throws {
        var sandbox = Market.sandbox()
        let id = try coin(&sandbox)
        try sandbox.recordConsumption(transactionId: id, info(sandbox, percentage: 100_000))
        sandbox.advance(by: try SandboxDuration(parsing: "1d"))
        _ = try sandbox.requestRefund(transactionId: id)
        let ended = try sandbox.decideRefund(transactionId: id, decision: nil)
        #expect(ended.decision == .approve && ended.decidedByConsumptionInfo == false)
    }
}
