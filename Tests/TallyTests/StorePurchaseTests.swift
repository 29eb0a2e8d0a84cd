import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

@Suite("Store purchases")
struct StorePurchaseTests {
    @Test("coins bought twice make 20")
    func coinsTwice() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let first = try await store.purchase(Shop.coins)
        let second = try await store.purchase(Shop.coins)
        #expect(first.transaction?.transactionId != second.transaction?.transactionId)
        #expect(await store.balance("coins") == 20)
        #expect(await harness.backend.unfinishedIds.isEmpty)
    }

    @Test("a purchase is delivered before purchase returns: written and finished")
    func purchaseDeliversAndFinishes() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let outcome = try await store.purchase(Shop.premium)
        let transaction = try #require(outcome.transaction)
        #expect(transaction.productId == Shop.premium)
        #expect(await store.history.transactions.map(\.transactionId) == [transaction.transactionId])
        #expect(await harness.backend.unfinishedIds.isEmpty)
        #expect(await store.isEntitled("premium"))
    }

    @Test("buying an owned non-consumable again answers with the owned transaction, not announced again")
    func alreadyOwned() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        store.attachFirstSubscriber()
        let owned = try #require(try await store.purchase(Shop.premium).transaction)
        let events = store.events()
        let again = try await store.purchase(Shop.premium, context: PurchaseContext(screen: "again"))
        #expect(again == .purchased(owned))
        let marker = await harness.backend.buyElsewhere(Shop.coins)
        let seen = try await collect(events) { event in
            if case .purchased(let transaction, _) = event { return transaction == marker }
            return false
        }
        #expect(seen.first == .purchasing(productId: Shop.premium, context: PurchaseContext(screen: "again")))
        #expect(!seen.contains(.purchased(owned, context: PurchaseContext(screen: "again"))))
        #expect(seen.filter { $0.name == "purchased" }.count == 1)
        #expect(await store.history.transactions.map(\.transactionId) == [owned.transactionId, marker.transactionId])
    }

    @Test("cancelled is an outcome, not a failure; a refusal is a typed error")
    func cancelledIsNotFailed() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let events = store.events()
        await harness.backend.setNext(.cancel)
        #expect(try await store.purchase(Shop.premium) == .cancelled)
        await harness.backend.setNext(.fail(StoreError(.purchaseNotAllowed, "Screen Time forbids purchases")))
        let error = await #expect(throws: StoreError.self) { try await store.purchase(Shop.premium) }
        #expect(error?.code == .purchaseNotAllowed)
        let seen = try await collect(events) { $0.name == "failed" }
        #expect(seen.map(\.name) == ["purchasing", "cancelled", "purchasing", "failed"])
        #expect(await store.history.transactions.isEmpty)
    }

    @Test("an unknown product is unavailable; a quantity below 1 is refused")
    func unavailableAndQuantity() async throws {
        let store = try await Harness().launch()
        let unavailable = await #expect(throws: StoreError.self) { try await store.purchase(Shop.unknown) }
        #expect(unavailable?.code == .productUnavailable)
        let quantity = await #expect(throws: StoreError.self) { try await store.purchase(Shop.coins, quantity: 0) }
        #expect(quantity?.code == .invalidQuantity)
    }

    @Test("products: found ones localized with display prices, invalid ids reported, answers cached")
    func productsAndInvalidIds() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let result = try await store.products([Shop.coins, Shop.unknown, Shop.premium, Shop.coins])
        #expect(result.products.map(\.id) == [Shop.coins, Shop.premium])
        #expect(result.invalidProductIds == [Shop.unknown])
        #expect(result.products.first?.displayName == "10 Coins")
        #expect(result.products.first?.displayPrice == "$0.99")
        let again = try await store.products([Shop.unknown, Shop.premium])
        #expect(again.products.map(\.id) == [Shop.premium])
        #expect(again.invalidProductIds == [Shop.unknown])
        #expect(await harness.backend.productRequests == 1)
    }

    @Test("events of a purchase: purchasing, purchased with the context, balanceChanged")
    func purchaseEventOrder() async throws {
        let store = try await Harness().launch()
        let events = store.events()
        let context = PurchaseContext(screen: "shop", offer: "launch")
        _ = try await store.purchase(Shop.coins, context: context)
        let seen = try await collect(events) { $0.name == "balanceChanged" }
        #expect(seen.map(\.name) == ["purchasing", "purchased", "balanceChanged"])
        guard case .purchased(let transaction, let delivered) = seen[1] else { return }
        #expect(transaction.productId == Shop.coins)
        #expect(delivered == context)
        #expect(seen[2] == .balanceChanged(currency: "coins", balance: 10))
    }
}
