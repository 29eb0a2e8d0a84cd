import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

@Suite("Store restore")
struct StoreRestoreTests {
    @Test("restore on another device brings premium and the subscription back, not coins")
    func restoreBringsNonConsumablesAndSubscriptions() async throws {
        let phone = Harness()
        let store = try await phone.launch()
        _ = try await store.purchase(Shop.coins)
        _ = try await store.purchase(Shop.premium)
        _ = try await store.purchase(Shop.proMonthly)
        await store.close()

        let tablet = try await phone.otherDevice().launch()
        let events = tablet.events()
        #expect(await tablet.isEntitled("premium") == false)
        let restored = try await tablet.restore()
        #expect(restored.map(\.productId) == [Shop.premium, Shop.proMonthly])
        #expect(await tablet.isEntitled("premium"))
        #expect(await tablet.isEntitled("pro"))
        #expect(await tablet.balance("coins") == 0)
        let seen = try await collect(events) { $0.name == "restored" }
        #expect(seen.last == .restored(count: 2))
    }

    @Test("nothing to restore is an empty answer, not an error")
    func nothingToRestore() async throws {
        let store = try await Harness().launch()
        let events = store.events()
        #expect(try await store.restore().isEmpty)
        #expect(try await collect(events) { $0.name == "restored" } == [.restored(count: 0)])
    }
}
