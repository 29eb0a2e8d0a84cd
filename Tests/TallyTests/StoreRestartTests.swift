import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

@Suite("Store restarts")
struct StoreRestartTests {
    @Test("premium survives a restart (a new store on the same directory)")
    func premiumSurvivesRestart() async throws {
        let harness = Harness()
        let first = try await harness.launch()
        _ = try await first.purchase(Shop.premium)
        await first.close()
        let second = try await harness.launch()
        #expect(await second.isEntitled("premium"))
        #expect(await second.history.transactions.map(\.productId) == [Shop.premium])
    }

    @Test("Ask to Buy approved while the app is closed carries its context into the next launch")
    func askToBuyAfterRestart() async throws {
        let harness = Harness()
        let first = try await harness.launch()
        await harness.backend.setNext(.askToBuy)
        let context = PurchaseContext(screen: "paywall", offer: "spring", info: ["campaign": "mail"])
        let token = UUID()
        let outcome = try await first.purchase(Shop.premium, appAccountToken: token, context: context)
        guard case .pending(let pending) = outcome else {
            Issue.record("expected pending, got \(outcome)")
            return
        }
        #expect(await first.isEntitled("premium") == false)
        await first.close()

        let approved = try #require(await harness.backend.approve(pending.id))
        let second = try await harness.launch()
        let seen = try await collect(second.events()) { $0.name == "purchased" }
        #expect(seen.last == .purchased(approved, context: context))
        #expect(await second.pendingPurchases.isEmpty)
        #expect(await second.isEntitled("premium"))
    }

    @Test("two pending purchases of one product: the approved one's context comes back, matched by token")
    func pendingMatchedByToken() async throws {
        let harness = Harness()
        let first = try await harness.launch()
        var pendingIds: [String] = []
        for screen in ["home", "shop"] {
            await harness.backend.setNext(.askToBuy)
            let outcome = try await first.purchase(Shop.coins, appAccountToken: UUID(),
                                                   context: PurchaseContext(screen: screen))
            if case .pending(let pending) = outcome { pendingIds.append(pending.id) }
        }
        #expect(pendingIds.count == 2)
        await first.close()
        let approved = try #require(await harness.backend.approve(pendingIds[1]))
        let second = try await harness.launch()
        let seen = try await collect(second.events()) { $0.name == "purchased" }
        #expect(seen.last == .purchased(approved, context: PurchaseContext(screen: "shop")))
        #expect(await second.pendingPurchases.map(\.id) == [pendingIds[0]])
    }

    @Test("Ask to Buy approved while running, named by purchase id, brings the context back")
    func askToBuyWhileRunning() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let events = store.events()
        await harness.backend.setNext(.askToBuy)
        let context = PurchaseContext(screen: "shop")
        let outcome = try await store.purchase(Shop.coins, context: context)
        guard case .pending(let pending) = outcome else {
            Issue.record("expected pending, got \(outcome)")
            return
        }
        #expect(await store.pendingPurchases == [pending])
        let approved = try #require(await harness.backend.approve(pending.id, announcingPurchaseId: true))
        let seen = try await collect(events) { $0.name == "purchased" }
        #expect(seen.map(\.name) == ["purchasing", "pending", "purchased"])
        #expect(seen.last == .purchased(approved, context: context))
        #expect(await harness.backend.unfinishedIds.isEmpty)
    }
}

@Suite("Store directory lock")
struct StoreDirectoryLockTests {
    @Test("one store per data directory: a second is refused until the first closes")
    func oneStorePerDirectory() async throws {
        let harness = Harness()
        let first = try await harness.launch()
        let refused = await #expect(throws: StoreError.self) { try await harness.launch() }
        #expect(refused?.code == .storage)
        await first.close()
        let closedWrite = await #expect(throws: StoreError.self) { try await first.purchase(Shop.premium) }
        #expect(closedWrite?.code == .storage)
        let second = try await harness.launch()
        #expect(await second.diagnostics.isEmpty)
    }
}
