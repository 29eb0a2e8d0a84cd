import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

@Suite("Store spends")
struct StoreSpendTests {
    @Test("a spend is idempotent by id and survives a restart")
    func idempotent() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        _ = try await store.purchase(Shop.coins)
        #expect(try await store.spend(3, of: "coins", id: "potion-1"))
        #expect(try await store.spend(3, of: "coins", id: "potion-1") == false)
        #expect(await store.balance("coins") == 7)
        await store.close()
        let relaunched = try await harness.launch()
        #expect(try await relaunched.spend(3, of: "coins", id: "potion-1") == false)
        #expect(await relaunched.balance("coins") == 7)
    }

    @Test("a spend larger than the balance is refused and changes nothing")
    func refusedWhenShort() async throws {
        let store = try await Harness().launch()
        _ = try await store.purchase(Shop.coins)
        let error = await #expect(throws: StoreError.self) { try await store.spend(11, of: "coins", id: "castle") }
        #expect(error?.code == .insufficientBalance)
        #expect(await store.balance("coins") == 10)
        #expect(await store.history.spends.isEmpty)
    }

    @Test("a spend emits balanceChanged with the new balance")
    func spendEvent() async throws {
        let store = try await Harness().launch()
        store.attachFirstSubscriber()
        _ = try await store.purchase(Shop.coins)
        let events = store.events()
        try await store.spend(4, of: "coins", id: "hat")
        #expect(try await collect(events) { $0.name == "balanceChanged" } == [.balanceChanged(currency: "coins", balance: 6)])
    }
}
