#if os(Linux)
import Foundation
@_spi(Scripting) import StoreKit
import Tally
import TallyCore
import Testing

extension OneAtATime {
/// Apple's launch behaviour, as the stand-in plays it: a new `Transaction.updates` first delivers each unfinished
/// transaction, so at launch the backend sees it from `Transaction.unfinished` and from `updates`.
@Suite("StoreKit at launch: unfinished transactions come on Transaction.updates too")
struct StoreKitLaunchTests {
    let script = StoreKitScript.shared

    @Test("a new Transaction.updates first yields each unfinished transaction, then what is pushed; finished ones not")
    func updatesStartWithTheUnfinished() async throws {
        let world = try StoreKitWorld()
        let first = try world.loose("market.coins.10")
        let second = try world.loose("market.coins.100")
        let pushed = try world.loose("market.premium")
        script.script { $0.unfinished = [.verified(first), .verified(second)] }
        var updates = StoreKit.Transaction.updates.makeAsyncIterator()
        script.pushUpdate(.verified(pushed))
        #expect(await updates.next()?.unsafePayloadValue.id == first.id)
        #expect(await updates.next()?.unsafePayloadValue.id == second.id)
        #expect(await updates.next()?.unsafePayloadValue.id == pushed.id)

        await first.finish()
        var later = StoreKit.Transaction.updates.makeAsyncIterator()
        script.pushUpdate(.verified(pushed))
        #expect(await later.next()?.unsafePayloadValue.id == second.id, "a finished transaction came again")
        #expect(await later.next()?.unsafePayloadValue.id == pushed.id)
    }

    @Test("an unfinished consumable seen at launch from unfinished and from updates is credited once and finished")
    func unfinishedAtLaunchIsCreditedOnce() async throws {
        let world = try StoreKitWorld()
        let coins = try world.loose("market.coins.10")
        script.script { $0.unfinished = [.verified(coins)] }
        let store = try await App(world).launch()
        #expect(await store.balance("coins") == 10)
        // The copy on updates was yielded before anything pushed now, and updates are delivered in order: once the
        // pushed transaction is credited, the launch copy has been handled too.
        script.pushUpdate(.verified(try world.loose("market.coins.100")))
        #expect(await eventually { await store.balance("coins") >= 110 })
        #expect(await store.balance("coins") == 110, "the copy from Transaction.updates was credited again")
        #expect(await store.history.transactions.filter { $0.transactionId == String(coins.id) }.count == 1)
        #expect(script.calls.finished.contains(coins.id))
        #expect(script.answers.unfinished.isEmpty)
        await store.close()
    }

    @Test("an unfinished non-consumable seen at launch twice is announced once")
    func unfinishedAtLaunchIsAnnouncedOnce() async throws {
        let world = try StoreKitWorld()
        let premium = try world.loose("market.premium")
        script.script { $0.unfinished = [.verified(premium)] }
        let store = try await App(world).launch()
        let events = store.events()
        script.pushUpdate(.verified(try world.loose("market.coins.10")))
        #expect(await eventually { await store.balance("coins") == 10 })
        await store.close()
        var purchases: [String] = []
        for await event in events {
            if case .purchased(let transaction, _) = event { purchases.append(transaction.productId) }
        }
        #expect(purchases.filter { $0 == "market.premium" }.count == 1, "\(purchases)")
        #expect(script.calls.finished.contains(premium.id))
    }
}
}
#endif
