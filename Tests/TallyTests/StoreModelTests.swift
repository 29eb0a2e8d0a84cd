import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

/// What an app developer meets on the model and the store beside purchases: the state at first look,
/// spend, restore with its count, subscription status, canMakePayments, intro-offer eligibility.
@Suite("StoreModel and the store's app-facing API", .timeLimit(.minutes(1)))
@MainActor
struct StoreModelTests {
    @Test("the model's state is the customer's at first look, before any event")
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)  // StoreModel
    func stateLoadedAtCreation() async throws {
        let harness = Harness()
        let first = try await harness.launch()
        _ = try await first.purchase(Shop.premium)
        _ = try await first.purchase(Shop.coins)
        await first.close()

        let model = await StoreModel(store: try await harness.launch())
        #expect(model.isEntitled("premium"))
        #expect(model.state.balance("coins") == 10)
        #expect(model.canMakePayments)
    }

    @Test("spend, restore with its count, and subscription status through the model")
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)  // StoreModel
    func spendRestoreStatus() async throws {
        let harness = Harness()
        let model = await StoreModel(store: try await harness.launch())
        await model.loadProducts([Shop.coins, Shop.premium, Shop.proMonthly])
        for product in model.products { await model.purchase(product) }
        #expect(model.state.balance("coins") == 10)
        #expect(await model.spend(4, of: "coins", id: "hat") == true)
        #expect(model.state.balance("coins") == 6)
        #expect(await model.spend(4, of: "coins", id: "hat") == false)
        #expect(await model.spend(40, of: "coins", id: "castle") == nil)
        #expect(model.lastError?.code == .insufficientBalance)

        let other = await StoreModel(store: try await harness.otherDevice().launch())
        #expect(await other.restore() == 2)  // premium and pro, never coins
        #expect(other.isEntitled("premium") && other.isEntitled("pro"))
        #expect(other.state.balance("coins") == 0)

        let pro = try #require(model.state.subscriptions.first)
        #expect(pro.willRenew)
        await harness.backend.changeRenewal(of: pro.originalTransactionId, autoRenewStatus: .off)
        await model.refreshSubscriptionStatus()
        #expect(model.state.subscriptions.first?.willRenew == false)
        #expect(model.lastError?.code == .insufficientBalance)  // unchanged: the refresh did not fail
    }

    @Test("canMakePayments follows the backend on the store and the model")
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)  // StoreModel
    func canMakePayments() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        #expect(await store.canMakePayments)
        await harness.backend.restrictPayments(true)
        #expect(await store.canMakePayments == false)
        let model = await StoreModel(store: store)
        #expect(model.canMakePayments == false)
        await harness.backend.restrictPayments(false)
        await model.reload()
        #expect(model.canMakePayments)
    }

    @Test("intro-offer eligibility is on the product, and ends once the group's offer was used")
    func introOfferEligibility() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let before = try await store.products([Shop.liteMonthly, Shop.proMonthly, Shop.premium]).products
        #expect(before.map(\.isEligibleForIntroOffer) == [true, false, false])  // only lite has an offer
        _ = try await store.purchase(Shop.liteMonthly)
        let after = try await store.products([Shop.liteMonthly]).products
        #expect(after.map(\.isEligibleForIntroOffer) == [false])
    }
}
