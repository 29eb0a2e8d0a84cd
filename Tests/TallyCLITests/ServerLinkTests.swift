import Foundation
import Synchronization
import Tally
import TallyCore
import TallySandbox
import TallySandboxBackend
import Testing

/// The engine (`Store` over `SandboxBackend`) linked to a real `tally serve` process on loopback.
@Suite("The engine and its server")
struct ServerLinkTests {
    static let coins = "market.coins.10"
    static let premium = "market.premium"

    /// What a test's engine records: delivery steps, back-off delays.
    final class Recorder: Sendable {
        let steps = Mutex<[DeliveryStep]>([])
        let delays = Mutex<[TimeInterval]>([])
    }

    /// A sandbox directory (the harness's catalog) and app directories under one scratch folder.
    final class Scratch {
        let harness: CrashHarness
        init() throws { harness = try CrashHarness() }
        var sandbox: URL { harness.sandbox }
        func app(_ name: String) -> URL { harness.root.appendingPathComponent("app-\(name)") }

        /// The sandbox's unfinished transactions for a device.
        func unfinished(account: String = "default", device: String = "default") throws -> Int {
            try SandboxDirectory(url: sandbox).load(account: account, events: false)
                .unfinished(account: account, device: device).count
        }

        /// An engine over the sandbox for `account`/`device`, linked to `server` as `user` (through `url`, a
        /// ``SlowProxy`` in front of it, when given), pinning `serverPublicKey` when given.
        func store(_ server: LinkedServer, user: String?, account: String = "default", device: String = "default",
                   recorder: Recorder = Recorder(), retry: RetryPolicy? = nil, url: URL? = nil,
                   customerToken: (@Sendable (String) async throws -> String?)? = nil,
                   serverPublicKey: Data? = nil) async throws -> Store {
            let saved = try SandboxDirectory(url: sandbox).load()
            let policy = retry ?? RetryPolicy(initialDelay: 0.02, maxDelay: 0.16) { delay in
                recorder.delays.withLock { $0.append(delay) }
                try await RetryPolicy.taskSleep(delay)
            }
            let link = ServerLink(url: url ?? server.url, publicKey: server.publicKey, appUserId: user, retry: policy,
                                  customerToken: customerToken, serverPublicKey: serverPublicKey)
            return try await Store(
                backend: SandboxBackend(directory: sandbox, account: account, device: device,
                                        pollInterval: 0.05),
                catalog: saved.catalog, configuration: saved.configuration, directory: app("\(account)-\(device)"),
                locale: "en_US", serverLink: link,
                deliveryObserver: { step, _ in recorder.steps.withLock { $0.append(step) } })
        }
    }

    /// Waits (up to `timeout`) for `condition`.
    static func eventually(_ timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }

    @Test func aPurchaseIsPostedThenFinishedAndTheStateIsTheServers() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox)
        let recorder = Recorder()
        let store = try await scratch.store(server, user: "user-1", recorder: recorder)
        #expect(await store.stateSource == .server)
        guard case .purchased(let transaction) = try await store.purchase(Self.coins) else {
            Issue.record("not purchased")
            return
        }
        #expect(recorder.steps.withLock { $0 } == [.received, .written, .posted, .finished, .emitted])
        #expect(try scratch.unfinished() == 0)
        #expect(try await server.coins("user-1") == 10)
        #expect(try await server.transactionIds("user-1") == [transaction.transactionId])
        #expect(await store.balance("coins") == 10)
        #expect(await store.stateSource == .server)
        // No customer token, so the server handed no account token: the purchase carries none (never one derived
        // from the appUserId, which anyone could compute), and the poster owns it.
        #expect(transaction.appAccountToken == nil)
        await store.close()
    }

    /// The engine asks the server for the customer's minted `appAccountToken` (with its customer token), sets it
    /// on purchases, and keeps it in `account-tokens.json`: a store opened while the server is down still knows
    /// which of the file's purchases are the customer's.
    @Test func aPurchaseCarriesTheTokenTheServerMintedForTheCustomerKeptAcrossLaunches() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, requireCustomerTokens: true)
        let token = try server.customerToken(for: "user-1")
        var store = try await scratch.store(server, user: "user-1", customerToken: { _ in token })
        guard case .purchased(let bought) = try await store.purchase(Self.premium) else {
            Issue.record("not purchased")
            return
        }
        let (status, body) = try await server.request("POST", "/v1/customers/user-1/account-token")
        #expect(status == 200)
        let minted = try #require(body["appAccountToken"] as? String)
        #expect(bought.appAccountToken == minted)
        await store.close()
        let kept = scratch.app("default-default").appendingPathComponent("account-tokens.json")
        #expect(String(decoding: try Data(contentsOf: kept), as: UTF8.self).contains(minted.uppercased()))

        server.stop()
        try FileManager.default.removeItem(at: scratch.app("default-default").appendingPathComponent("server-state.json"))
        store = try await scratch.store(server, user: "user-1", customerToken: { _ in token })
        #expect(await store.stateSource == .localCache)
        #expect(await store.isEntitled("premium"), "the file's purchase carries the kept token")
        await store.close()
        let other = try await scratch.store(server, user: "user-2", customerToken: { _ in token })
        #expect(await other.isEntitled("premium") == false, "another customer's purchase is not shown")
        await other.close()
    }

    /// A server with `customers.requireToken`: the engine posts with the token its app's backend issued, once per
    /// request; without one, nothing is acknowledged, so the purchase stays unfinished and is posted once a token
    /// comes.
    @Test func underRequireTokenTheEnginePostsWithItsBackendsTokenAndWaitsWithoutOne() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, requireCustomerTokens: true)
        let issued = Mutex<[String]>([])
        let available = Mutex(false)
        let token = try server.customerToken(for: "user-1")
        let store = try await scratch.store(server, user: "user-1", customerToken: { appUserId in
            issued.withLock { $0.append(appUserId) }
            return available.withLock { $0 } ? token : nil
        })
        guard case .purchased = try await store.purchase(Self.coins) else {
            Issue.record("not purchased")
            return
        }
        #expect(try scratch.unfinished() == 1, "no token: the server took nothing, so the purchase stays unfinished")
        let diagnostics = await store.diagnostics
        #expect(diagnostics.contains { $0.kind == .serverUnavailable && $0.message.contains("401") }, "\(diagnostics)")
        available.withLock { $0 = true }
        #expect(try await Self.eventually { try scratch.unfinished() == 0 })
        #expect(try await server.coins("user-1") == 10)
        #expect(issued.withLock { $0 }.allSatisfy { $0 == "user-1" } && issued.withLock { $0.count } >= 2)
        await store.close()
    }

    @Test func whileTheServerIsDownThePurchaseStaysUnfinishedAndIsDeliveredOnceWhenItComesBack() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox)
        server.stop()
        let recorder = Recorder()
        let store = try await scratch.store(server, user: "user-1", recorder: recorder)
        #expect(await store.stateSource == .localCache)
        guard case .purchased = try await store.purchase(Self.coins) else {
            Issue.record("not purchased")
            return
        }
        // The app keeps working from its file; the store still holds the transaction unfinished.
        #expect(await store.balance("coins") == 10)
        #expect(await store.stateSource == .localCache)
        #expect(try scratch.unfinished() == 1)
        #expect(await store.diagnostics.contains { $0.kind == .serverUnavailable })
        #expect(!recorder.steps.withLock { $0 }.contains(.finished))
        // Retried with doubling waits, capped.
        #expect(await Self.eventually { recorder.delays.withLock { $0.count } >= 5 })
        let delays = recorder.delays.withLock { Array($0.prefix(5)) }
        #expect(delays == [0.02, 0.04, 0.08, 0.16, 0.16])
        #expect(try scratch.unfinished() == 1)

        try server.start()
        #expect(try await Self.eventually { try scratch.unfinished() == 0 })
        #expect(try await server.coins("user-1") == 10)
        #expect(try await server.transactionIds("user-1").count == 1)
        await store.refresh()
        #expect(await store.stateSource == .server)
        #expect(await store.balance("coins") == 10)
        #expect(await store.history.transactions.count == 1)
        await store.close()
    }

    @Test func aTransactionTheServerRefusesIsFinishedAndReportedNotRetried() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, bundleId: "com.example.other")
        let recorder = Recorder()
        let store = try await scratch.store(server, user: "user-1", recorder: recorder)
        let events = store.events()
        guard case .purchased(let transaction) = try await store.purchase(Self.coins) else {
            Issue.record("not purchased")
            return
        }
        #expect(try scratch.unfinished() == 0)
        #expect(recorder.steps.withLock { $0 } == [.received, .written, .posted, .finished, .emitted])
        let refusal = try #require(await store.diagnostics.first { $0.kind == .serverRefused })
        #expect(refusal.message.contains("422 verification_failed"))
        #expect(refusal.message.contains(transaction.transactionId))
        var refusedEvent = false
        for await event in events {
            if case .serverRefused(let id, let status, let code, _) = event {
                refusedEvent = id == transaction.transactionId && status == 422 && code == "verification_failed"
                break
            }
        }
        #expect(refusedEvent)
        #expect(try await server.coins("user-1") == 0)
        try await Task.sleep(for: .milliseconds(200))
        #expect(recorder.delays.withLock { $0 }.isEmpty, "a refused transaction must not be retried")
        await store.close()
    }

    @Test func twoDevicesOfOneCustomerSeeTheSamePremiumAndCoinsAfterRefresh() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox)
        // Two App Store accounts (a phone and a tablet), one customer of the app: only the server links them.
        let phone = try await scratch.store(server, user: "shared", account: "phone-id", device: "phone")
        let tablet = try await scratch.store(server, user: "shared", account: "tablet-id", device: "tablet")
        _ = try await phone.purchase(Self.premium)
        _ = try await phone.purchase(Self.coins)
        #expect(await tablet.isEntitled("premium") == false)
        let seen = await tablet.refresh()
        #expect(seen.isEntitled("premium"))
        #expect(seen.balance("coins") == 10)
        #expect(await tablet.stateSource == .server)
        #expect(await tablet.history.transactions.isEmpty, "no restore: the tablet's file holds nothing")
        // A spend is the app backend's (secret key); the app's public key is not offered one.
        await #expect(throws: StoreError.self) { try await tablet.spend(3, of: "coins", id: "order-1") }
        do { try await tablet.spend(3, of: "coins", id: "order-1") } catch {
            #expect(error.code == .spendOnAppBackend)
            #expect(error.message.contains("/currencies/coins/spend"))
        }
        let (status, _) = try await server.request("POST", "/v1/customers/shared/currencies/coins/spend",
                                                   body: ["amount": 3, "id": "order-1"])
        #expect(status == 200)
        #expect(await phone.refresh().balance("coins") == 7)
        #expect(await tablet.refresh().balance("coins") == 7)
        await phone.close()
        await tablet.close()
    }
}
