import Foundation
import Testing
import TallyCore
@testable import TallySandbox

/// What the customer owns, through the TallyCore ownership rules.
@Suite("Sandbox state through the ownership rules")
struct SandboxStateTests {
    @Test("coins twice then premium: 20 coins and premium; restore on a new device changes nothing")
    func coinsAndPremium() throws {
        var sandbox = Market.sandbox()
        _ = try sandbox.purchase(Market.coins).requireTransaction()
        _ = try sandbox.purchase(Market.coins).requireTransaction()
        _ = try sandbox.purchase(Market.premium).requireTransaction()
        var state = sandbox.state()
        #expect(state.balance("coins") == 20)
        #expect(state.isEntitled("premium"))
        #expect(state.nonConsumables == [Market.premium])
        _ = try sandbox.restore(device: "ipad")
        state = sandbox.state()
        #expect(state.balance("coins") == 20)
        #expect(state.isEntitled("premium"))
    }

    @Test("a subscription goes subscribed → grace → billing retry → expired")
    func subscriptionStatuses() throws {
        var sandbox = Market.sandbox()
        sandbox.set(.billingIssue, enabled: true)
        sandbox.set(.gracePeriod, enabled: true)
        _ = try sandbox.purchase(Market.proMonthly).requireTransaction()
        #expect(sandbox.state().subscriptions.first?.status == .subscribed)
        #expect(sandbox.state().isEntitled("pro"))
        sandbox.advance(by: try SandboxDuration(parsing: "1M"))
        #expect(sandbox.state().subscriptions.first?.status == .inGracePeriod)
        #expect(sandbox.state().isEntitled("pro"))
        sandbox.advance(by: try SandboxDuration(parsing: "20d"))
        #expect(sandbox.state().subscriptions.first?.status == .inBillingRetry)
        #expect(!sandbox.state().isEntitled("pro"))
        sandbox.advance(by: try SandboxDuration(parsing: "2M"))
        #expect(sandbox.state().subscriptions.first?.status == .expired)
    }

    @Test("a refunded subscription is revoked; a refunded non-consumable is no longer owned")
    func refundsInState() throws {
        var sandbox = Market.sandbox()
        let sub = try sandbox.purchase(Market.proMonthly).requireTransaction()
        let premium = try sandbox.purchase(Market.premium).requireTransaction()
        _ = try sandbox.refund(transactionId: sub.transactionId)
        _ = try sandbox.refund(transactionId: premium.transactionId)
        let state = sandbox.state()
        #expect(state.subscriptions.first?.status == .revoked)
        #expect(!state.isEntitled("pro"))
        #expect(!state.isEntitled("premium"))
        #expect(state.nonConsumables.isEmpty)
    }

    @Test("an upgrade is in force at once; a downgrade only after renewal")
    func changesInState() throws {
        var sandbox = Market.sandbox()
        _ = try sandbox.purchase(Market.proMonthly).requireTransaction()
        _ = sandbox.purchase(Market.basicMonthly)
        var state = sandbox.state()
        #expect(state.subscriptions.first?.productId == Market.proMonthly)
        #expect(state.subscriptions.first?.pendingProductId == Market.basicMonthly)
        sandbox.advance(by: try SandboxDuration(parsing: "1M"))
        #expect(sandbox.state().subscriptions.first?.productId == Market.basicMonthly)
        _ = try sandbox.purchase(Market.plusMonthly).requireTransaction()
        state = sandbox.state()
        #expect(state.subscriptions.first?.productId == Market.plusMonthly)
        #expect(state.subscriptions.first?.status == .subscribed)
    }
}
