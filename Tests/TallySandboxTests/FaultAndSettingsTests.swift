import Foundation
import Testing
import TallyCore
@testable import TallySandbox

@Suite("Sandbox faults and settings")
struct FaultAndSettingsTests {
    @Test("a product request with one unknown id")
    func productRequest() throws {
        var sandbox = Market.sandbox()
        let response = try sandbox.products(ids: [Market.premium, "market.unknown", Market.coins, Market.premium])
        #expect(response.products.map(\.id) == [Market.premium, Market.coins])
        #expect(response.invalidIdentifiers == ["market.unknown"])
        #expect(sandbox.events.last?.kind == .productsRequested)
    }

    @Test("fault injection fails exactly N calls", arguments: [1, 3])
    func failNext(count: Int) throws {
        var sandbox = Market.sandbox()
        sandbox.failNext(.products, with: .networkError, count: count)
        sandbox.failNext(.restore, with: .systemError, count: 1)
        for _ in 0..<count {
            do {
                _ = try sandbox.products(ids: [Market.coins])
                Issue.record("the call should fail")
            } catch {
                #expect(error.code == .networkError)
            }
        }
        #expect(try sandbox.products(ids: [Market.coins]).products.count == 1)
        #expect(sandbox.purchase(Market.coins).transaction != nil)
        #expect(throws: SandboxError(.systemError, "restore: injected system error")) {
            try sandbox.restore()
        }
        #expect(try sandbox.restore().isEmpty)
        #expect(sandbox.settings.faults.isEmpty)
    }

    @Test("settings of the .storekit file are the initial settings")
    func initialSettings() throws {
        var file = StoreKitSettings()
        file.askToBuyEnabled = true
        file.renewalBillingIssuesEnabled = true
        file.billingGracePeriodEnabled = true
        file.timeRate = 15
        file.locale = "ja_JP"
        file.storefront = "JPN"
        file.storeKitErrors = [
            .init(name: "Load Products", enabled: true, errorType: "generic", errorIndex: 2),
            .init(name: "Purchase", enabled: false, errorType: "purchase", errorIndex: 1),
            .init(name: "App Store Sync", enabled: true),
        ]
        var sandbox = Market.sandbox(settings: file)
        let settings = sandbox.settings
        #expect(settings.askToBuy && settings.billingIssue && settings.gracePeriod)
        #expect(!settings.interrupted && !settings.parentalControls && !settings.failTransactions)
        #expect(settings.timeRate == 15 && settings.locale == "ja_JP" && settings.storefront == "JPN")
        #expect(settings.faults == [
            .init(api: .products, failure: .networkError, remaining: nil),
            .init(api: .restore, failure: .unknown, remaining: nil),
        ])
        for _ in 0..<2 {
            #expect(throws: SandboxError.self) { try sandbox.products(ids: [Market.coins]) }
        }
        #expect(sandbox.purchase(Market.coins).pendingPurchase?.reason == .askToBuy)
        sandbox.setPersistentFailure(.products, nil)
        #expect(try sandbox.products(ids: [Market.coins]).products.count == 1)
    }

    @Test("failTransactionsEnabled fails every purchase; interrupted purchases start interrupted")
    func failTransactions() {
        var file = StoreKitSettings()
        file.failTransactionsEnabled = true
        var sandbox = Market.sandbox(settings: file)
        #expect(sandbox.purchase(Market.coins).error?.code == .unknown)
        #expect(sandbox.purchase(Market.coins).error?.code == .unknown)
        var other = StoreKitSettings()
        other.interruptedPurchasesEnabled = true
        var interrupted = Market.sandbox(settings: other)
        #expect(interrupted.purchase(Market.coins).pendingPurchase?.reason == .interrupted)
    }

    @Test("an account override beats the global switch")
    func accountOverride() {
        var sandbox = Market.sandbox()
        sandbox.set(.askToBuy, enabled: true)
        sandbox.set(.askToBuy, enabled: false, account: "adult")
        #expect(sandbox.purchase(Market.coins, account: "adult").transaction != nil)
        #expect(sandbox.purchase(Market.coins, account: "child").pendingPurchase != nil)
        #expect(sandbox.pendingPurchases(account: "child").count == 1)
        #expect(sandbox.pendingPurchases(account: "adult").isEmpty)
    }
}
