import Foundation
import Tally
import TallyCore
import TallySandbox
import TallySandboxBackend
import Testing

/// Logging in and out with a server link: ``Store/switchCustomer(to:appAccountToken:)`` against a real
/// `tally serve` under each `ownership` policy; the restored purchases follow the server's policy.
@Suite("Switching customers follows the server's ownership policy")
struct CustomerSwitchTests {
    typealias Scratch = ServerLinkTests.Scratch

    /// The server's non-consumables for a customer.
    static func owned(_ server: LinkedServer, _ appUserId: String) async throws -> [String] {
        try await server.customer(appUserId)["nonConsumables"] as? [String] ?? []
    }

    @Test func underTransferTheRestoredPurchaseMovesToTheNewCustomer() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, ownership: "transfer")
        let store = try await scratch.store(server, user: "alice")
        let events = store.events()
        _ = try await store.purchase(ServerLinkTests.premium)
        _ = try await store.purchase(ServerLinkTests.coins)
        #expect(try await Self.owned(server, "alice") == [ServerLinkTests.premium])
        // The app's backend spent some of alice's coins: the server holds 6, this device's file still 10.
        let (spent, _) = try await server.request("POST", "/v1/customers/alice/currencies/coins/spend",
                                                  body: ["amount": 4, "id": "order-1"])
        #expect(spent == 200)
        #expect(await store.refresh().balance("coins") == 6)

        let during = store.events()
        let change = try await store.switchCustomer(to: "bob")
        #expect(change.previousAppUserId == "alice")
        #expect(change.appUserId == "bob")
        #expect(change.ownership == .transferred)
        #expect(change.transferred.map(\.productId) == [ServerLinkTests.premium])
        #expect(change.kept.isEmpty)
        #expect(await store.serverLink?.appUserId == "bob")
        #expect(await store.stateSource == .server)
        #expect(await store.isEntitled("premium"))
        // Consumables are not restored: alice's coins stay hers.
        #expect(await store.balance("coins") == 0)
        #expect(try await Self.owned(server, "bob") == [ServerLinkTests.premium])
        #expect(try await Self.owned(server, "alice").isEmpty)
        #expect(try await server.coins("alice") == 6)
        var announced: CustomerSwitch?
        for await event in events {
            if case .customerSwitched(let seen) = event {
                announced = seen
                break
            }
        }
        #expect(announced == change)
        // One change of state, alice's server state to bob's: never the device's file in between.
        var seen: [StoreEvent] = []
        for await event in during {
            seen.append(event)
            if case .balanceChanged = event { break }
        }
        #expect(seen == [.restored(count: 1), .customerSwitched(change), .balanceChanged(currency: "coins", balance: 0)])

        // From now on purchases are bob's (with no account token: this server hands none without a customer token).
        guard case .purchased(let coins) = try await store.purchase(ServerLinkTests.coins) else {
            Issue.record("not purchased")
            return
        }
        #expect(coins.appAccountToken == nil)
        #expect(try await server.coins("bob") == 10)
        #expect(try await server.coins("alice") == 6)
        #expect(await store.balance("coins") == 10)
        await store.close()
    }

    @Test func underKeepTheRestoredPurchaseStaysWithItsOwner() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, ownership: "keep")
        let store = try await scratch.store(server, user: "alice")
        _ = try await store.purchase(ServerLinkTests.premium)

        let change = try await store.switchCustomer(to: "bob")
        #expect(change.ownership == .kept)
        #expect(change.kept.map(\.productId) == [ServerLinkTests.premium])
        #expect(change.transferred.isEmpty)
        #expect(await store.isEntitled("premium") == false, "bob does not get alice's premium")
        #expect(await store.stateSource == .server)
        #expect(try await Self.owned(server, "bob").isEmpty)
        #expect(try await Self.owned(server, "alice") == [ServerLinkTests.premium])
        #expect(await store.diagnostics.contains { $0.kind == .serverRefused } == false,
                "a kept purchase is an outcome, not a refusal")

        // Logging back in as alice: nothing moves, premium is hers again.
        let back = try await store.switchCustomer(to: "alice")
        #expect(back.ownership == .none)
        #expect(back.posted.map(\.outcome) == [.unchanged])
        #expect(await store.isEntitled("premium"))
        await store.close()
    }

    @Test func anAnswerForThePreviousCustomerLandingAfterTheSwitchIsNotTakenAsTheNewOnes() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, ownership: "keep")
        let proxy = try SlowProxy(to: server.url, in: scratch.harness.root)
        var store = try await scratch.store(server, user: "alice", url: proxy.url)
        _ = try await store.purchase(ServerLinkTests.premium)
        // alice's state is read on a slow network: its answer lands once the switch to bob is done.
        try proxy.holdBack("GET", "/v1/customers/alice")
        let reading = Task { [store] in await store.refresh() }
        #expect(await ServerLinkTests.eventually { proxy.received("GET", "/v1/customers/alice") })
        let change = try await store.switchCustomer(to: "bob")
        #expect(change.kept.map(\.productId) == [ServerLinkTests.premium])
        #expect(await store.isEntitled("premium") == false)
        try proxy.release()
        _ = await reading.value
        #expect(await store.serverLink?.appUserId == "bob")
        #expect(await store.isEntitled("premium") == false, "alice's late answer is not bob's state")
        await store.close()

        // Nor saved as bob's: offline, bob's saved state is bob's.
        server.stop()
        store = try await scratch.store(server, user: "bob", url: proxy.url)
        #expect(await store.stateSource == .savedServerState)
        #expect(await store.isEntitled("premium") == false, "alice's late answer was saved as bob's")
        await store.close()
    }

    @Test func switchedOfflineTheNewCustomerDoesNotSeeThePreviousOnesPurchases() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, ownership: "keep")
        let store = try await scratch.store(server, user: "alice", retry: RetryPolicy(initialDelay: 60))
        _ = try await store.purchase(ServerLinkTests.premium)
        _ = try await store.purchase(ServerLinkTests.coins)
        server.stop()
        let change = try await store.switchCustomer(to: "bob")
        #expect(change.notPosted.map(\.productId) == [ServerLinkTests.premium])
        // Nothing of bob's is known yet: not alice's purchases, which the device's file holds.
        #expect(await store.stateSource == .localCache)
        #expect(await store.isEntitled("premium") == false, "alice's premium shown as bob's")
        #expect(await store.balance("coins") == 0, "alice's coins shown as bob's")
        #expect(await store.localState.balance("coins") == 10, "the device's file keeps alice's")
        await store.close()
    }

    @Test func aRestoredPurchaseTheServerCouldNotTakeDuringASwitchIsPostedOnceItIsBack() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, ownership: "transfer")
        let store = try await scratch.store(server, user: "alice")
        _ = try await store.purchase(ServerLinkTests.premium)
        server.stop()
        let change = try await store.switchCustomer(to: "bob")
        #expect(change.notPosted.map(\.productId) == [ServerLinkTests.premium])
        try server.start()
        // The back-off loop posts it for bob: no restore() needed.
        #expect(try await ServerLinkTests.eventually(.seconds(15)) {
            try await Self.owned(server, "bob") == [ServerLinkTests.premium]
        })
        #expect(await store.refresh().isEntitled("premium"))
        #expect(await store.stateSource == .server)
        #expect(await store.diagnostics.contains { $0.kind == .finishFailed } == false)
        await store.close()
    }

    /// Holds the sandbox's database under an exclusive lock for `seconds` (a `python3` child), so a purchase
    /// waits inside the backend meanwhile; returns once the lock is held.
    static func lockSandbox(_ scratch: Scratch, seconds: Double) throws -> Process {
        let held = scratch.harness.root.appendingPathComponent("lock-\(UUID().uuidString)")
        let lock = Process()
        lock.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        lock.arguments = ["python3", "-c", """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("BEGIN EXCLUSIVE")
            open(sys.argv[2], "w").close()
            time.sleep(float(sys.argv[3]))
            db.execute("COMMIT")
            """, scratch.sandbox.appendingPathComponent("sandbox.sqlite").path, held.path, String(seconds)]
        try lock.run()
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: held.path), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return lock
    }

    @Test func aSwitchIsRefusedWhileAPurchaseCallIsOpen() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, ownership: "transfer")
        let store = try await scratch.store(server, user: "alice")
        let events = store.events()
        let lock = try Self.lockSandbox(scratch, seconds: 2)
        let buying = Task { [store] in try await store.purchase(ServerLinkTests.premium) }
        for await event in events { if case .purchasing = event { break } }
        do {
            try await store.switchCustomer(to: "bob")
            Issue.record("switched while alice's purchase was waiting on the App Store")
        } catch {
            #expect(error.code.rawValue == "purchaseInProgress")
            #expect(error.message.contains(ServerLinkTests.premium))
        }
        #expect(await store.serverLink?.appUserId == "alice")
        guard case .purchased(let bought) = try await buying.value else {
            Issue.record("not purchased")
            return
        }
        lock.waitUntilExit()
        #expect(bought.appAccountToken == nil, "no token is derived from the appUserId")
        #expect(try await Self.owned(server, "alice") == [ServerLinkTests.premium])
        #expect(try await Self.owned(server, "bob").isEmpty)
        // Once it ended, the switch goes through.
        #expect(try await store.switchCustomer(to: "bob").appUserId == "bob")
        await store.close()
    }

    @Test func anAskToBuyApprovedAfterTheSwitchIsPostedForTheCustomerWhoAskedForIt() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, ownership: "transfer")
        let store = try await scratch.store(server, user: "alice")
        let askToBuy = try TallyProcess.run(["sandbox", "set", "ask-to-buy", "on", "--data", scratch.sandbox.path])
        #expect(askToBuy.status == 0, "\(askToBuy.stderr)")
        guard case .pending(let pending) = try await store.purchase(ServerLinkTests.premium) else {
            Issue.record("not pending")
            return
        }
        #expect(try await store.switchCustomer(to: "bob").posted.isEmpty)
        let approved = try TallyProcess.run(["sandbox", "approve", pending.id, "--data", scratch.sandbox.path])
        #expect(approved.status == 0, "\(approved.stderr)")
        #expect(try await ServerLinkTests.eventually(.seconds(15)) { try scratch.unfinished() == 0 })
        // alice asked for it with alice's token: it is alice's, not moved to bob.
        #expect(try await Self.owned(server, "alice") == [ServerLinkTests.premium])
        #expect(try await Self.owned(server, "bob").isEmpty)
        #expect(await store.refresh().isEntitled("premium") == false)
        #expect(await store.serverLink?.appUserId == "bob")
        await store.close()
    }

    @Test func aRestoredTransactionTheServerRefusesForGoodIsListedAsRefused() async throws {
        let scratch = try Scratch()
        // The server verifies for another app: it refuses (422) every transaction of this one.
        let server = try LinkedServer(trusting: scratch.sandbox, bundleId: "com.example.other")
        let store = try await scratch.store(server, user: "alice")
        _ = try await store.purchase(ServerLinkTests.premium)
        let change = try await store.switchCustomer(to: "bob")
        #expect(change.posted.isEmpty)
        #expect(change.notPosted.isEmpty)
        #expect(change.refused.map(\.transaction.productId) == [ServerLinkTests.premium])
        #expect(change.refused.map(\.status) == [422])
        #expect(change.refused.map(\.code) == ["verification_failed"])
        await store.close()
    }

    @Test func aRestoredPostWhoseOutcomeTheEngineDoesNotKnowIsReportedNotGuessed() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, ownership: "transfer")
        let proxy = try SlowProxy(to: server.url, in: scratch.harness.root)
        let store = try await scratch.store(server, user: "alice", url: proxy.url)
        _ = try await store.purchase(ServerLinkTests.premium)
        // A newer server names an outcome this engine does not know.
        try proxy.rewrite("\"outcome\":\"transferred\"", to: "\"outcome\":\"teleported\"")
        let change = try await store.switchCustomer(to: "bob")
        #expect(change.posted.map(\.transaction.productId) == [ServerLinkTests.premium])
        #expect(change.posted.map { String(describing: $0.outcome) } == ["nil"],
                "an unknown outcome was read as a known one")
        #expect(await store.diagnostics.contains { $0.kind.rawValue == "unknownServerOutcome" })
        #expect(try await Self.owned(server, "bob") == [ServerLinkTests.premium])
        await store.close()
    }

    @Test func aSwitchWaitsWhileAPurchaseOfTheCurrentCustomerIsNotPosted() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, ownership: "transfer")
        let store = try await scratch.store(server, user: "alice", retry: RetryPolicy(initialDelay: 60))
        server.stop()
        _ = try await store.purchase(ServerLinkTests.coins)
        await #expect(throws: StoreError.self) { try await store.switchCustomer(to: "bob") }
        do { try await store.switchCustomer(to: "bob") } catch {
            #expect(error.code == .networkError)
            #expect(error.message.contains("alice"))
        }
        #expect(await store.serverLink?.appUserId == "alice")
        #expect(try scratch.unfinished() == 1)

        // Back up: the switch first posts alice's purchase for alice, then switches.
        try server.start()
        let change = try await store.switchCustomer(to: "bob")
        #expect(change.ownership == .none)
        #expect(try scratch.unfinished() == 0)
        #expect(try await server.coins("alice") == 10)
        #expect(try await server.coins("bob") == 0)
        #expect(await store.balance("coins") == 0)
        await store.close()
    }

    @Test func aLinkedRestorePostsWhatItRestoredSoAPurchaseFromBeforeTheServerReachesIt() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox)
        // The app before it had a server: the purchase lives in the App Store and the customer file only.
        let saved = try SandboxDirectory(url: scratch.sandbox).load()
        let unlinked = try await Store(
            backend: SandboxBackend(directory: scratch.sandbox, pollInterval: 0.05),
            catalog: saved.catalog, configuration: saved.configuration, directory: scratch.app("default-default"),
            locale: "en_US")
        _ = try await unlinked.purchase(ServerLinkTests.premium)
        await unlinked.close()

        let store = try await scratch.store(server, user: "alice")
        #expect(await store.isEntitled("premium") == false, "the server has never heard of it")
        let restored = try await store.restore()
        #expect(restored.map(\.productId) == [ServerLinkTests.premium])
        #expect(try await Self.owned(server, "alice") == [ServerLinkTests.premium])
        #expect(await store.stateSource == .server)
        #expect(await store.isEntitled("premium"))
        await store.close()
    }

    @MainActor
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)  // StoreModel
    @Test func theSwiftUIModelSwitchesAndShowsWhereItsStateComesFrom() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, ownership: "transfer")
        let store = try await scratch.store(server, user: "alice")
        let model = await StoreModel(store: store)
        #expect(model.stateSource == .server)
        _ = try await store.purchase(ServerLinkTests.premium)
        let change = try #require(await model.switchCustomer(to: "bob"))
        #expect(change.ownership == .transferred)
        #expect(model.isEntitled("premium"))
        #expect(model.stateSource == .server)
        #expect(await model.switchCustomer(to: "") == nil)
        #expect(model.lastError?.code == .invalidValue)
        server.stop()
        await model.reload()
        #expect(model.stateSource == .savedServerState)
        #expect(model.isEntitled("premium"))
        await store.close()
    }

    @Test func anEmptyCustomerIdIsRefusedAndNothingChanges() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox)
        let linked = try await scratch.store(server, user: "alice")
        do {
            try await linked.switchCustomer(to: "")
            Issue.record("an empty appUserId was taken")
        } catch {
            #expect(error.code == .invalidValue)
        }
        #expect(await linked.serverLink?.appUserId == "alice")
        await linked.close()
    }
}
