import Foundation
import Testing
import TallyCore
@testable import TallySandbox

@Suite("Sandbox purchases")
struct PurchaseFlowTests {
    @Test("remove ads, then restore on a second device")
    func removeAdsThenRestoreOnSecondDevice() throws {
        var sandbox = Market.sandbox()
        let bought = try sandbox.purchase(Market.removeAds, device: "iphone").requireTransaction()
        #expect(bought.transactionId == "2000000000000001")
        #expect(bought.originalTransactionId == bought.transactionId)
        #expect(bought.type == .nonConsumable)
        #expect(bought.bundleId == "com.example.market")
        #expect(bought.price == 2990)
        #expect(bought.currency == "USD")
        #expect(bought.storefront == "USA")
        #expect(bought.storefrontId == "143441")
        #expect(bought.environment == .sandbox)
        #expect(bought.transactionReason == .purchase)
        #expect(bought.inAppOwnershipType == .purchased)
        #expect(bought.signedDate == Market.start)
        #expect(bought.webOrderLineItemId == nil)
        #expect(sandbox.unfinished(device: "iphone").map(\.transactionId) == [bought.transactionId])
        #expect(sandbox.unfinished(device: "ipad").isEmpty)

        let restored = try sandbox.restore(device: "ipad")
        #expect(restored.map(\.transactionId) == [bought.transactionId])
        #expect(sandbox.devices() == ["iphone", "ipad"])
        #expect(sandbox.events.last?.kind == .restored)
        #expect(sandbox.state().isEntitled("noAds"))
        #expect(!sandbox.state(account: "other").isEntitled("noAds"))
    }

    @Test("coins twice, then premium: restore brings premium back, never coins")
    func coinsTwiceThenPremium() throws {
        var sandbox = Market.sandbox()
        let first = try sandbox.purchase(Market.coins, device: "iphone").requireTransaction()
        let second = try sandbox.purchase(Market.coins, device: "iphone").requireTransaction()
        #expect(first.transactionId != second.transactionId)
        let premium = try sandbox.purchase(Market.premium, device: "iphone").requireTransaction()
        for transaction in [first, second, premium] {
            sandbox.finish(transactionId: transaction.transactionId, device: "iphone")
        }
        #expect(sandbox.unfinished(device: "iphone").isEmpty)
        #expect(sandbox.transactions().map(\.transactionId) == [first, second, premium].map(\.transactionId))

        let restored = try sandbox.restore(device: "ipad")
        #expect(restored.map(\.productId) == [Market.premium])
        #expect(sandbox.unfinished(device: "ipad").isEmpty)
        let state = sandbox.state()
        #expect(state.balance("coins") == 20)
        #expect(state.isEntitled("premium"))
    }

    @Test("an unfinished consumable stays deliverable on its device, and restore does not return it")
    func unfinishedConsumableIsNotRestored() throws {
        var sandbox = Market.sandbox()
        let coins = try sandbox.purchase(Market.coins, device: "iphone").requireTransaction()
        #expect(try sandbox.restore(device: "iphone").isEmpty)
        #expect(sandbox.unfinished(device: "iphone").map(\.transactionId) == [coins.transactionId])
    }

    @Test("restore with nothing to restore returns an empty list")
    func nothingToRestore() throws {
        var sandbox = Market.sandbox()
        #expect(try sandbox.restore(account: "new-customer", device: "ipad").isEmpty)
        #expect(sandbox.events.last?.detail == "0 transactions")
    }

    @Test("a cancelled purchase is distinguished from a failed one")
    func cancelledIsNotFailed() throws {
        var sandbox = Market.sandbox()
        sandbox.failNext(.purchase, with: .cancelled)
        let cancelled = sandbox.purchase(Market.premium)
        guard case .cancelled = cancelled else {
            Issue.record("expected cancelled, got \(cancelled)")
            return
        }
        sandbox.failNext(.purchase, with: .networkError)
        let failed = sandbox.purchase(Market.premium)
        #expect(failed.error?.code == .networkError)
        #expect(sandbox.transactions().isEmpty)
        #expect(sandbox.events.filter { $0.kind != .settingsChanged }.suffix(2).map(\.kind) == [.cancelled, .failed])
        #expect(try sandbox.purchase(Market.premium).requireTransaction().productId == Market.premium)
    }

    @Test("parental controls refuse purchases for the account only")
    func parentalControls() throws {
        var sandbox = Market.sandbox()
        sandbox.set(.parentalControls, enabled: true, account: "child")
        #expect(sandbox.purchase(Market.coins, account: "child").error?.code == .purchaseNotAllowed)
        #expect(sandbox.purchase(Market.coins, account: "parent").transaction != nil)
        #expect(sandbox.transactions(account: "child").isEmpty)
    }

    @Test("an unknown product fails as unknown, not as an injected unavailability")
    func unknownProduct() {
        var sandbox = Market.sandbox()
        let result = sandbox.purchase("market.nope")
        #expect(result.error?.code == .unknownProduct)
        #expect(result.error?.message.contains("market.nope") == true)
    }

    @Test("quantity above 1 is for consumables only")
    func quantity() throws {
        var sandbox = Market.sandbox()
        let coins = try sandbox.purchase(Market.coins, quantity: 3).requireTransaction()
        #expect(coins.quantity == 3)
        let refused = sandbox.purchase(Market.premium, quantity: 2)
        #expect(refused.error?.code == .invalidQuantity)
        #expect(refused.error?.message.contains(Market.premium) == true)
        #expect(sandbox.purchase(Market.coins, quantity: 0).error?.code == .invalidQuantity)
        #expect(sandbox.transactions().count == 1)
    }

    @Test("buying an owned non-consumable again charges nothing and returns the existing transaction")
    func ownedNonConsumable() throws {
        var sandbox = Market.sandbox()
        let first = try sandbox.purchase(Market.premium, device: "iphone").requireTransaction()
        let again = try sandbox.purchase(Market.premium, device: "ipad").requireTransaction()
        #expect(again == first)
        #expect(sandbox.transactions().count == 1)
        #expect(sandbox.events.last?.kind == .alreadyOwned)
    }

    @Test("a purchase carries the app account token and the storefront of the settings")
    func tokenAndStorefront() throws {
        var sandbox = Market.sandbox()
        sandbox.settings.storefront = "JPN"
        let token = "5A1D2C7E-0000-4000-8000-000000000001"
        let bought = try sandbox.purchase(Market.coins, appAccountToken: token).requireTransaction()
        #expect(bought.appAccountToken == token)
        #expect(bought.storefront == "JPN")
        #expect(bought.storefrontId == "143462")
        sandbox.settings.storefront = "XYZ"
        #expect(try sandbox.purchase(Market.coins).requireTransaction().storefrontId == nil)
    }

    @Test("a non-renewing purchase is restored on another device")
    func nonRenewingRestored() throws {
        var sandbox = Market.sandbox()
        let pass = try sandbox.purchase(Market.season, device: "iphone").requireTransaction()
        #expect(pass.type == .nonRenewing)
        #expect(try sandbox.restore(device: "ipad").map(\.transactionId) == [pass.transactionId])
    }
}
