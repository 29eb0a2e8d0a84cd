#if os(Linux)
import Foundation
@_spi(Scripting) import StoreKit
import Synchronization
import Tally
import TallyCore
import TallyStoreKit
import Testing

/// What a stream delivered so far, collected by a task of its own.
final class Collected<Element: Sendable>: Sendable {
    private final class Items: Sendable {
        let list = Mutex<[Element]>([])
    }

    private let items = Items()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<Element>) {
        task = Task { [items] in
            for await item in stream { items.list.withLock { $0.append(item) } }
        }
    }

    deinit { task.cancel() }

    var all: [Element] { items.list.withLock { $0 } }

    /// The first `count` items, once that many came (nil if they did not within 10 s).
    func first(_ count: Int) async -> [Element]? {
        await eventually { self.all.count >= count } ? Array(all.prefix(count)) : nil
    }
}

extension OneAtATime {
/// StoreKit's promoted purchases, messages and sheets through the engine, over the stand-in's script.
@Suite("StoreKit backend: intents, messages and sheets")
struct StoreKitSheetsTests {
    let script = StoreKitScript.shared
    let sheets = StoreKitSheetScript.shared

    init() { StoreKitSheetScript.shared.reset() }

    @Test("a PurchaseIntent waiting before the app listens reaches promotedPurchases(); buying it uses the intent's product")
    func promotedPurchaseBought() async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        let premium = StoreKitWorld.storeKitProduct(try world.market.product("market.premium"))
        sheets.pushIntent(premium)
        let intents = Collected(store.promotedPurchases())
        let first = try #require(await intents.first(1))
        #expect(first == [PromotedPurchase(productId: "market.premium")])
        // One pushed while listening arrives too.
        let coins = StoreKitWorld.storeKitProduct(try world.market.product("market.coins.10"))
        sheets.pushIntent(coins)
        #expect(await intents.first(2)?.last?.productId == "market.coins.10")

        let outcome = try await store.purchase(first[0].productId)
        guard case .purchased = outcome else { Issue.record("\(outcome)"); return }
        #expect(script.calls.purchases.map(\.productID) == ["market.premium"])
        #expect(script.calls.productRequests.allSatisfy { !$0.contains("market.premium") },
                "the intent's product is kept: \(script.calls.productRequests)")
        #expect(await store.isEntitled("premium"))
        await store.close()
    }

    @Test("with a confirmation scene a purchase is confirmed in it (visionOS's only way); without one it is purchase(options:)")
    func purchaseConfirmedInTheScene() async throws {
        let world = try StoreKitWorld()
        nonisolated(unsafe) var launched: StoreKitBackend?
        let store = try await App(world).launch { backend in
            launched = backend as? StoreKitBackend
            return backend
        }
        let backend = try #require(launched)
        guard case .purchased = try await store.purchase("market.coins.10") else { Issue.record("not purchased"); return }
        #expect(script.calls.confirmedIn.isEmpty, "no scene given: purchase(options:)")
        await backend.setConfirmationScene { StoreKitSheetScript.scene("checkout") }
        guard case .purchased = try await store.purchase("market.premium") else { Issue.record("not purchased"); return }
        #expect(script.calls.confirmedIn == ["UIWindowScene"])
        #expect(script.calls.purchases.map(\.productID) == ["market.coins.10", "market.premium"])
        #expect(await store.isEntitled("premium"))
        #expect(await store.balance("coins") == 10)
        await store.close()
    }

    @Test("Message.messages reach storeMessages() with their reason; display(_:in:) shows that message in the scene, once")
    @MainActor
    func messagesDeferredThenDisplayed() async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        sheets.pushMessage(.billingIssue)
        sheets.pushMessage(.priceIncreaseConsent)
        sheets.pushMessage(Message.Reason(rawValue: 99))
        let messages = Collected(store.storeMessages())
        let got = try #require(await messages.first(3))
        #expect(got.map(\.reason) == [.billingIssue, .priceIncrease, .generic])
        #expect(Set(got.map(\.id)).count == 3)
        #expect(sheets.calls.displayed.isEmpty, "listening defers: nothing is shown on its own")

        let scene = StoreKitSheetScript.scene("main")
        try await store.display(got[1], in: scene)
        #expect(sheets.calls.displayed.map(\.reason) == [.priceIncreaseConsent])
        #expect(sheets.calls.displayed.map(\.scene) == ["main"])
        await #expect(throws: StoreError.self) { try await store.display(got[1], in: scene) }
        await #expect(throws: StoreError.self) {
            try await store.display(StoreMessage(id: "made-up", reason: .billingIssue), in: scene)
        }
        #expect(sheets.calls.displayed.count == 1)
        await store.close()
    }

    @Test("manage subscriptions and offer codes are StoreKit's sheets in the app's scene; their errors are StoreErrors")
    @MainActor
    func sheetsInTheScene() async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        let scene = StoreKitSheetScript.scene("settings")
        try await store.showManageSubscriptions(in: scene)
        try await store.showManageSubscriptions(in: scene, subscriptionGroupId: "market.pro")
        #expect(sheets.calls.manageSubscriptions.map(\.scene) == ["settings", "settings"])
        #expect(sheets.calls.manageSubscriptions.map(\.groupID) == [nil, "market.pro"])
        try await store.presentOfferCodeRedeemSheet(in: scene)
        #expect(sheets.calls.offerCodeSheets == ["settings"])

        sheets.script { $0.offerCodeError = StoreKitError.networkError(URLError(.notConnectedToInternet)) }
        let error = await #expect(throws: StoreError.self) { try await store.presentOfferCodeRedeemSheet(in: scene) }
        #expect(error?.code == .networkError)
        await store.close()
    }

    @Test("beginRefundRequest(for:in:) asks StoreKit with the transaction's id; each status and error maps")
    @MainActor
    func refundRequests() async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        guard case .purchased(let bought) = try await store.purchase("market.coins.10") else {
            Issue.record("not purchased"); return
        }
        let scene = StoreKitSheetScript.scene("history")
        #expect(try await store.beginRefundRequest(for: bought.transactionId, in: scene) == .requested)
        sheets.script { $0.refundStatus = .userCancelled }
        #expect(try await store.beginRefundRequest(for: bought.transactionId, in: scene) == .cancelled)
        sheets.script { $0.refundError = StoreKit.Transaction.RefundRequestError.duplicateRequest }
        #expect(try await store.beginRefundRequest(for: bought.transactionId, in: scene) == .alreadyRequested)
        sheets.script { $0.refundError = StoreKit.Transaction.RefundRequestError.failed }
        let failed = await #expect(throws: StoreError.self) {
            try await store.beginRefundRequest(for: bought.transactionId, in: scene)
        }
        #expect(failed?.code == .backend)
        let calls = sheets.calls.refundRequests
        #expect(calls.map(\.transactionID) == Array(repeating: UInt64(bought.transactionId), count: 4))
        #expect(calls.map(\.scene) == Array(repeating: "history", count: 4))

        let bad = await #expect(throws: StoreError.self) { try await store.beginRefundRequest(for: "x1", in: scene) }
        #expect(bad?.code == .invalidValue)
        #expect(sheets.calls.refundRequests.count == 4, "a bad id never reaches StoreKit")
        await store.close()
    }
}
}
#endif
