#if os(Linux)
import Foundation
import MarketAppModel
@_spi(Scripting) import StoreKit
import Tally
import Testing

extension OneAtATime {
/// The Market app's screen model over the StoreKit backend and the scripted stand-in: what the SwiftUI view shows.
@Suite("MarketApp's model over StoreKit")
@MainActor
struct MarketShopTests {
    private func open(_ world: StoreKitWorld) async throws -> (MarketShop, App) {
        let app = App(world)
        let store = try await app.launch()
        let shop = MarketShop(model: await StoreModel(store: store))
        await shop.load()
        return (shop, app)
    }

    @Test("the list shows every product with StoreKit's price and a buy button; coins 0, premium locked")
    func freshShop() async throws {
        let world = try StoreKitWorld()
        let (shop, app) = try await open(world)
        #expect(shop.rows.map(\.id) == MarketShop.productIds)
        let coins = try world.market.product("market.coins.10")
        #expect(shop.rows.first?.price == coins.displayPrice(locale: "en_US"))
        #expect(shop.rows.allSatisfy { $0.action == .buy })
        #expect(shop.coins == 0)
        #expect(!shop.isPremiumUnlocked)
        #expect(shop.canBuy)
        await shop.model.store.close()
        _ = app
    }

    @Test("buying coins and premium: the balance grows, the lock opens, premium's row shows owned")
    func buying() async throws {
        let world = try StoreKitWorld()
        let (shop, app) = try await open(world)
        await shop.buy("market.coins.10")
        await shop.buy("market.coins.10")
        await shop.buy("market.premium")
        #expect(shop.coins == 20)
        #expect(shop.isPremiumUnlocked)
        #expect(shop.rows.first { $0.id == "market.premium" }?.action == .owned)
        #expect(shop.rows.first { $0.id == "market.coins.10" }?.action == .buy, "a consumable stays buyable")
        #expect(shop.message == nil)
        await shop.model.store.close()
        _ = app
    }

    @Test("Ask to Buy: a pending row and a waiting button until a parent approves")
    func askToBuy() async throws {
        let world = try StoreKitWorld()
        let (shop, app) = try await open(world)
        try world.enableAskToBuy()
        await shop.buy("market.premium")
        #expect(shop.pendingRows.count == 1)
        #expect(shop.rows.first { $0.id == "market.premium" }?.action == .waitingForApproval)
        #expect(shop.message?.contains("approve") == true)
        try world.approveOldestPending()
        #expect(await eventually { await MainActor.run { shop.isPremiumUnlocked && shop.pendingRows.isEmpty } })
        await shop.model.store.close()
        _ = app
    }

    @Test("restore on a new install: the message counts what came back; a failure is shown")
    func restore() async throws {
        let world = try StoreKitWorld()
        let (first, firstApp) = try await open(world)
        await first.buy("market.premium")
        await first.model.store.close()
        _ = firstApp

        let (shop, app) = try await open(world)
        #expect(!shop.isPremiumUnlocked)
        await shop.restore()
        #expect(shop.isPremiumUnlocked)
        #expect(shop.message == "Restored 1 purchase")
        StoreKitScript.shared.script { $0.syncError = StoreKitError.networkError(URLError(.notConnectedToInternet)) }
        await shop.restore()
        #expect(shop.message?.contains("could not be reached") == true)
        await shop.model.store.close()
        _ = app
    }

    @Test("no payments allowed: no buy buttons")
    func cannotBuy() async throws {
        let world = try StoreKitWorld()
        try world.forbidPayments()
        let (shop, app) = try await open(world)
        #expect(!shop.canBuy)
        await shop.model.store.close()
        _ = app
    }

    @Test("the refund button's transaction: the latest premium purchase's App Store id, none once refunded")
    func refundableTransaction() async throws {
        let world = try StoreKitWorld()
        let (shop, app) = try await open(world)
        #expect(await shop.refundableTransactionId(of: "market.premium") == nil)
        await shop.buy("market.premium")
        let premium = try #require(await shop.model.store.history.transactions.first { $0.productId == "market.premium" })
        #expect(await shop.refundableTransactionId(of: "market.premium") == UInt64(premium.transactionId))
        try world.refund(transactionId: premium.transactionId)
        let refunded = await eventually { await shop.refundableTransactionId(of: "market.premium") == nil }
        #expect(refunded, "the refund did not reach the engine")
        await shop.model.store.close()
        _ = app
    }
}
}
#endif
