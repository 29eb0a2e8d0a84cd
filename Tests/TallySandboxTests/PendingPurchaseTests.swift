import Foundation
import Testing
import TallyCore
@testable import TallySandbox

@Suite("Sandbox Ask to Buy and interrupted purchases")
struct PendingPurchaseTests {
    @Test("Ask to Buy approved: the transaction arrives later as an update")
    func askToBuyApproved() throws {
        var sandbox = Market.sandbox()
        _ = try sandbox.restore(device: "ipad")
        sandbox.set(.askToBuy, enabled: true, account: "default")
        let waiting = try sandbox.purchase(Market.premium, device: "iphone").requirePending()
        #expect(waiting.reason == .askToBuy)
        #expect(sandbox.transactions().isEmpty)
        #expect(sandbox.pendingPurchases().map(\.purchaseId) == [waiting.purchaseId])

        sandbox.advance(by: try SandboxDuration(parsing: "2h"))
        let approved = try sandbox.approve(purchaseId: waiting.purchaseId)
        #expect(approved.productId == Market.premium)
        #expect(approved.purchaseDate == Market.start.addingTimeInterval(7200))
        #expect(sandbox.transactions() == [approved])
        #expect(sandbox.unfinished(device: "iphone") == [approved])
        #expect(sandbox.unfinished(device: "ipad") == [approved])
        #expect(sandbox.pendingPurchases().isEmpty)
        #expect(throws: SandboxError.self) { try sandbox.approve(purchaseId: waiting.purchaseId) }
    }

    @Test("Ask to Buy declined: nothing charged, no transaction")
    func askToBuyDeclined() throws {
        var sandbox = Market.sandbox()
        sandbox.set(.askToBuy, enabled: true)
        let waiting = try sandbox.purchase(Market.coins).requirePending()
        try sandbox.decline(purchaseId: waiting.purchaseId)
        #expect(sandbox.state().balance("coins") == 0)
        #expect(sandbox.transactions().isEmpty)
        #expect(sandbox.unfinished().isEmpty)
        #expect(sandbox.pendingPurchases().isEmpty)
        #expect(sandbox.events.last?.kind == .declined)
        do {
            try sandbox.decline(purchaseId: waiting.purchaseId)
            Issue.record("declining twice should fail")
        } catch {
            #expect(error.code == .alreadyResolved)
        }
        do {
            try sandbox.decline(purchaseId: "purchase-999")
            Issue.record("an unknown purchase should fail")
        } catch {
            #expect(error.code == .unknownPurchase)
        }
    }

    @Test("an interrupted purchase completes when resolved, on the purchasing device")
    func interrupted() throws {
        var sandbox = Market.sandbox()
        sandbox.set(.interrupted, enabled: true)
        let waiting = try sandbox.purchase(Market.removeAds, device: "iphone").requirePending()
        #expect(waiting.reason == .interrupted)
        do {
            _ = try sandbox.approve(purchaseId: waiting.purchaseId)
            Issue.record("approving an interrupted purchase should fail")
        } catch {
            #expect(error.code == .wrongPendingKind)
        }
        let done = try sandbox.resolveInterrupted(purchaseId: waiting.purchaseId)
        #expect(done.productId == Market.removeAds)
        #expect(sandbox.unfinished(device: "iphone") == [done])
    }
}
