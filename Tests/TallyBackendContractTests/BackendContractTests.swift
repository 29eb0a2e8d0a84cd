import Foundation
import Tally
import TallyCore
import Testing

/// The worlds every contract test runs in: the sandbox backend, and on Linux the StoreKit backend over the
/// scripted stand-in (on Apple platforms real StoreKit cannot be scripted; nothing stands in there).
enum WorldKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sandbox
    #if os(Linux)
    case storeKit
    #endif

    var testDescription: String { rawValue }

    func make() throws -> any BackendWorld {
        switch self {
        case .sandbox: try SandboxWorld()
        #if os(Linux)
        case .storeKit: try StoreKitWorld()
        #endif
        }
    }
}

/// One app on one world: a customer directory and the engine's ``Store`` over each launch's backend.
final class App: Sendable {
    let world: any BackendWorld
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-contract-app-\(UUID().uuidString)")

    init(_ world: any BackendWorld) { self.world = world }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Launches the app: a new backend instance and a new store over the same customer directory.
    func launch(_ wrap: (any StoreBackend) -> any StoreBackend = { $0 }) async throws -> Store {
        let backend = wrap(try world.launch())
        return try await Store(backend: backend, catalog: world.market.catalog, configuration: world.market.configuration,
                               directory: directory, locale: "en_US")
    }
}

/// Every suite that scripts StoreKit's stand-in (one script per process) nests here, so they run one test at a time.
@Suite("Backends, one test at a time", .serialized)
enum OneAtATime {}

extension OneAtATime {
/// The contract of a ``StoreBackend``, the same expectations for every backend, observed through the engine.
@Suite("Backend contract")
struct BackendContractTests {
    @Test("storefront: the store's country code (StoreKit's Storefront.current, the sandbox's _storefront)",
          arguments: WorldKind.allCases)
    func storefrontIsTheStoresCountryCode(kind: WorldKind) async throws {
        let world = try kind.make()
        let backend = try world.launch()
        #expect(await backend.storefront == "USA")
    }

    @Test("products: the ones sold, with prices and subscription details; an unknown id reported invalid",
          arguments: WorldKind.allCases)
    func productsWithAnInvalidId(kind: WorldKind) async throws {
        let world = try kind.make()
        let store = try await App(world).launch()
        let answer = try await store.products(["market.coins.10", "market.nope", "market.pro.monthly"])
        #expect(answer.products.map(\.id) == ["market.coins.10", "market.pro.monthly"])
        #expect(answer.invalidProductIds == ["market.nope"])
        let coins = try world.market.product("market.coins.10")
        #expect(answer.products.first?.displayPrice == coins.displayPrice(locale: "en_US"))
        #expect(answer.products.first?.product.price == coins.price)
        let pro = try #require(answer.products.last?.product.subscription)
        let expected = try #require(try world.market.product("market.pro.monthly").subscription)
        #expect(pro.groupId == expected.groupId)
        #expect(pro.period == expected.period)
        #expect(pro.level == expected.level)
        #expect(pro.introductoryOffer?.paymentMode == expected.introductoryOffer?.paymentMode)
        await store.close()
    }

    @Test("a purchase of each kind is delivered, owned and finished", arguments: WorldKind.allCases)
    func purchaseOfEachKind(kind: WorldKind) async throws {
        let world = try kind.make()
        let store = try await App(world).launch()
        for id in ["market.coins.10", "market.premium", "market.pro.monthly", "market.seasonpass"] {
            let outcome = try await store.purchase(id)
            guard case .purchased(let transaction) = outcome else {
                Issue.record("\(kind): buying \(id) answered \(outcome)")
                continue
            }
            #expect(transaction.productId == id)
        }
        let state = await store.state
        #expect(state.balance("coins") == 10)
        #expect(state.isEntitled("premium"))
        #expect(state.isEntitled("pro"))
        #expect(state.isEntitled("season"))
        #expect(state.subscriptions.first?.status == .subscribed)
        #expect(try world.unfinishedCount() == 0, "every delivered transaction is finished")
        await store.close()
    }

    @Test("a cancelled purchase is the cancelled outcome and delivers nothing", arguments: WorldKind.allCases)
    func cancel(kind: WorldKind) async throws {
        let world = try kind.make()
        let store = try await App(world).launch()
        try world.cancelNextPurchase()
        #expect(try await store.purchase("market.premium") == .cancelled)
        #expect(await !store.isEntitled("premium"))
        #expect(await store.history.transactions.isEmpty)
        // The next purchase is not cancelled.
        guard case .purchased = try await store.purchase("market.premium") else {
            Issue.record("\(kind): the purchase after a cancel did not go through")
            return
        }
        await store.close()
    }

    @Test("Ask to Buy: pending, then approved outside the purchase call, credited once", arguments: WorldKind.allCases)
    func pendingThenApproved(kind: WorldKind) async throws {
        let world = try kind.make()
        let store = try await App(world).launch()
        try world.enableAskToBuy()
        guard case .pending = try await store.purchase("market.coins.10") else {
            Issue.record("\(kind): an Ask to Buy purchase was not pending")
            return
        }
        #expect(await store.pendingPurchases.count == 1)
        #expect(await store.balance("coins") == 0)
        try world.approveOldestPending()
        let credited = await eventually {
            let coins = await store.balance("coins"), pending = await store.pendingPurchases
            return coins == 10 && pending.isEmpty
        }
        #expect(credited, "\(kind): the approval did not reach the engine")
        #expect(await store.history.transactions.count == 1)
        await store.close()
    }

    @Test("Ask to Buy: pending, then declined: nothing credited, at once or after a relaunch",
          arguments: WorldKind.allCases)
    func pendingThenDeclined(kind: WorldKind) async throws {
        let world = try kind.make()
        let app = App(world)
        var store = try await app.launch()
        try world.enableAskToBuy()
        guard case .pending = try await store.purchase("market.premium") else {
            Issue.record("\(kind): an Ask to Buy purchase was not pending")
            return
        }
        try world.declineOldestPending()
        if world.reportsDeclines {
            let open = store
            #expect(await eventually { await open.pendingPurchases.isEmpty }, "\(kind): the decline was not seen")
        }
        await store.close()
        store = try await app.launch()
        #expect(await !store.isEntitled("premium"))
        #expect(await store.history.transactions.isEmpty)
        // StoreKit 2 sends nothing for a decline: the purchase stays pending in the app (docs/engine.md).
        #expect(await store.pendingPurchases.count == (world.reportsDeclines ? 0 : 1))
        await store.close()
    }

    @Test("a transaction written but not finished before a crash is delivered again at launch and credited once",
          arguments: WorldKind.allCases)
    func unfinishedRedeliveredAfterACrash(kind: WorldKind) async throws {
        let world = try kind.make()
        let app = App(world)
        var store = try await app.launch { CrashBeforeFinish(base: $0) }
        guard case .purchased = try await store.purchase("market.coins.10") else {
            Issue.record("\(kind): the purchase did not go through")
            return
        }
        #expect(await store.balance("coins") == 10)
        await store.close()
        #expect(try world.unfinishedCount() == 1, "\(kind): the store should still hold the transaction unfinished")

        store = try await app.launch()
        #expect(await store.balance("coins") == 10, "\(kind): redelivery credited twice or lost the coins")
        #expect(await store.history.transactions.count == 1)
        #expect(try world.unfinishedCount() == 0, "\(kind): the redelivered transaction was not finished")
        await store.close()
    }

    @Test("restore on a new install brings back non-consumables and subscriptions, never consumables",
          arguments: WorldKind.allCases)
    func restore(kind: WorldKind) async throws {
        let world = try kind.make()
        let first = try await App(world).launch()
        for id in ["market.coins.10", "market.premium", "market.pro.monthly"] { _ = try await first.purchase(id) }
        await first.close()

        let reinstalled = try await App(world).launch()
        #expect(await !reinstalled.isEntitled("premium"))
        let restored = try await reinstalled.restore()
        #expect(Set(restored.map(\.productId)) == ["market.premium", "market.pro.monthly"])
        let state = await reinstalled.state
        #expect(state.isEntitled("premium"))
        #expect(state.isEntitled("pro"))
        #expect(state.balance("coins") == 0)
        await reinstalled.close()
    }

    @Test("a refund arriving on the updates stream takes the coins back", arguments: WorldKind.allCases)
    func refundOnUpdates(kind: WorldKind) async throws {
        let world = try kind.make()
        let store = try await App(world).launch()
        guard case .purchased(let coins) = try await store.purchase("market.coins.10"),
              case .purchased(let premium) = try await store.purchase("market.premium") else {
            Issue.record("\(kind): the purchases did not go through")
            return
        }
        try world.refund(transactionId: coins.transactionId)
        try world.refund(transactionId: premium.transactionId)
        let revoked = await eventually {
            let coins = await store.balance("coins"), premium = await store.isEntitled("premium")
            return coins == 0 && !premium
        }
        #expect(revoked, "\(kind): the refunds did not reach the engine")
        #expect(await store.history.transactions.allSatisfy(\.isRevoked))
        await store.close()
    }

    @Test("a renewal arriving outside any call extends the subscription", arguments: WorldKind.allCases)
    func renewalOnUpdates(kind: WorldKind) async throws {
        let world = try kind.make()
        let store = try await App(world).launch()
        _ = try await store.purchase("market.pro.monthly")
        let before = try #require(await store.state.subscriptions.first?.expiresDate)
        try world.renew(productId: "market.pro.monthly")
        let renewed = await eventually {
            let subscription = await store.refresh().subscriptions.first
            return subscription?.status == .subscribed && (subscription?.expiresDate ?? before) > before
        }
        #expect(renewed, "\(kind): the renewal did not reach the engine")
        #expect(await store.history.transactions.count == 2)
        #expect(await store.isEntitled("pro"))
        await store.close()
    }

    @Test("auto-renew turned off reaches the app through the subscription status", arguments: WorldKind.allCases)
    func subscriptionStatusChange(kind: WorldKind) async throws {
        let world = try kind.make()
        let store = try await App(world).launch()
        _ = try await store.purchase("market.pro.monthly")
        #expect(try await store.refreshSubscriptionStatus().subscriptions.first?.willRenew == true)
        try world.turnOffAutoRenew(productId: "market.pro.monthly")
        let state = try await store.refreshSubscriptionStatus()
        #expect(state.subscriptions.first?.willRenew == false)
        #expect(state.isEntitled("pro"), "still entitled until the period ends")
        await store.close()
    }

    @Test("a forged transaction fails verification and is never credited, now or after a relaunch",
          arguments: WorldKind.allCases)
    func verificationFailure(kind: WorldKind) async throws {
        let world = try kind.make()
        let app = App(world)
        var store = try await app.launch()
        try world.forgeNextPurchase()
        await #expect { try await store.purchase("market.coins.100") } throws: { error in
            (error as? StoreError)?.code == .verificationFailed
        }
        #expect(await store.balance("coins") == 0)
        #expect(await store.history.transactions.isEmpty)
        await store.close()
        store = try await app.launch()
        #expect(await store.balance("coins") == 0)
        await store.close()
    }

    @Test("canMakePayments false: the app is told, and a purchase is not allowed", arguments: WorldKind.allCases)
    func cannotMakePayments(kind: WorldKind) async throws {
        let world = try kind.make()
        let store = try await App(world).launch()
        #expect(await store.canMakePayments)
        try world.forbidPayments()
        #expect(await !store.canMakePayments)
        await #expect { try await store.purchase("market.premium") } throws: { error in
            (error as? StoreError)?.code == .purchaseNotAllowed
        }
        #expect(await !store.isEntitled("premium"))
        await store.close()
    }
}
}
