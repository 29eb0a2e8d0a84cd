import Foundation
import Tally
import TallyCore
import Testing

/// The server's last customer state on disk: a store opened while `tally serve` is down (the process stopped)
/// shows what the server last said, marked ``StateSource/savedServerState`` with its date — not only what this
/// device bought.
@Suite("The server's last state, saved for offline")
struct SavedServerStateTests {
    typealias Scratch = ServerLinkTests.Scratch

    @Test func aRestartedStoreShowsTheServersLastStateWhileTheServerIsDown() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox)
        // The phone buys; the tablet (another App Store account, the same customer) only reads the server.
        let phone = try await scratch.store(server, user: "shared", account: "phone-id", device: "phone")
        _ = try await phone.purchase(ServerLinkTests.premium)
        _ = try await phone.purchase(ServerLinkTests.coins)
        await phone.close()
        var tablet = try await scratch.store(server, user: "shared", account: "tablet-id", device: "tablet")
        #expect(await tablet.stateSource == .server)
        let answeredAt = try #require(await tablet.serverStateDate)
        await tablet.close()

        server.stop()
        tablet = try await scratch.store(server, user: "shared", account: "tablet-id", device: "tablet")
        #expect(await tablet.stateSource == .savedServerState)
        #expect(await tablet.serverStateDate == answeredAt)
        #expect(await tablet.isEntitled("premium"))
        #expect(await tablet.balance("coins") == 10)
        #expect(await tablet.localState.isEntitled("premium") == false, "the tablet's own file holds nothing")
        #expect(await tablet.refresh().balance("coins") == 10)
        #expect(await tablet.stateSource == .savedServerState)
        await tablet.close()

        // Saved for "shared" only: the same install linked as another customer shows its own file.
        let other = try await scratch.store(server, user: "someone-else", account: "tablet-id", device: "tablet")
        #expect(await other.stateSource == .localCache)
        #expect(await other.isEntitled("premium") == false)
        #expect(await other.serverStateDate == nil)
        await other.close()

        // Back up: the server's state again, and a spend made by the backend meanwhile shows.
        try server.start()
        let (status, _) = try await server.request("POST", "/v1/customers/shared/currencies/coins/spend",
                                                   body: ["amount": 4, "id": "order-1"])
        #expect(status == 200)
        tablet = try await scratch.store(server, user: "shared", account: "tablet-id", device: "tablet")
        #expect(await tablet.stateSource == .server)
        #expect(await tablet.balance("coins") == 6)
        await tablet.close()
    }

    @Test func offlineAPurchaseNotPostedYetIsAddedToTheServersSavedState() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox)
        let phone = try await scratch.store(server, user: "shared", account: "phone-id", device: "phone")
        _ = try await phone.purchase(ServerLinkTests.coins)
        await phone.close()
        var tablet = try await scratch.store(server, user: "shared", account: "tablet-id", device: "tablet")
        #expect(await tablet.balance("coins") == 10)
        #expect(await tablet.isEntitled("premium") == false)
        await tablet.close()

        server.stop()
        let retry = RetryPolicy(initialDelay: 0.05, maxDelay: 0.2)
        tablet = try await scratch.store(server, user: "shared", account: "tablet-id", device: "tablet", retry: retry)
        #expect(await tablet.stateSource == .savedServerState)
        _ = try await tablet.purchase(ServerLinkTests.coins)
        _ = try await tablet.purchase(ServerLinkTests.premium)
        // The phone's coins (saved from the server) and the tablet's own unposted purchases.
        #expect(await tablet.stateSource == .savedServerState)
        #expect(await tablet.balance("coins") == 20)
        #expect(await tablet.isEntitled("premium"))
        #expect(await tablet.state.nonConsumables == [ServerLinkTests.premium])
        #expect(await tablet.localState.balance("coins") == 10, "the tablet's file holds its own coins only")
        #expect(try scratch.unfinished(account: "tablet-id", device: "tablet") == 2)
        // Across a restart too, and once the server is back the posts go through: the server's state, the same sum.
        await tablet.close()
        tablet = try await scratch.store(server, user: "shared", account: "tablet-id", device: "tablet", retry: retry)
        #expect(await tablet.balance("coins") == 20)
        #expect(await tablet.stateSource == .savedServerState)
        try server.start()
        #expect(try await ServerLinkTests.eventually { try scratch.unfinished(account: "tablet-id", device: "tablet") == 0 })
        #expect(await tablet.refresh().balance("coins") == 20)
        #expect(await tablet.stateSource == .server)
        #expect(try await server.coins("shared") == 20)
        await tablet.close()
    }

    @Test func aStateSavedFromOneServerIsNotShownForAnotherServersCustomerOfTheSameId() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox)
        let phone = try await scratch.store(server, user: "shared", account: "phone-id", device: "phone")
        _ = try await phone.purchase(ServerLinkTests.premium)
        await phone.close()
        var tablet = try await scratch.store(server, user: "shared", account: "tablet-id", device: "tablet")
        #expect(await tablet.isEntitled("premium"))
        await tablet.close()
        server.stop()
        // The same install pointed at another server (staging), down too: "shared" there is someone else.
        let staging = URL(string: "http://127.0.0.1:1")!
        tablet = try await scratch.store(server, user: "shared", account: "tablet-id", device: "tablet", url: staging)
        #expect(await tablet.stateSource == .localCache)
        #expect(await tablet.serverStateDate == nil)
        #expect(await tablet.isEntitled("premium") == false, "the other server's saved state was shown")
        await tablet.close()
    }

    @Test func aDamagedSavedStateIsReportedAndNotShown() async throws {
        let scratch = try Scratch()
        // With a customer token, so the engine holds the customer's minted account token (kept on disk).
        let server = try LinkedServer(trusting: scratch.sandbox, requireCustomerTokens: true)
        let token = try server.customerToken(for: "user-1")
        var store = try await scratch.store(server, user: "user-1", customerToken: { _ in token })
        _ = try await store.purchase(ServerLinkTests.premium)
        await store.close()
        server.stop()
        let file = scratch.app("default-default").appendingPathComponent("server-state.json")
        #expect(FileManager.default.fileExists(atPath: file.path))
        try Data("{\"formatVersion\":1,\"appUserId\":\"user-1\",\"sav".utf8).write(to: file)
        store = try await scratch.store(server, user: "user-1", customerToken: { _ in token })
        #expect(await store.stateSource == .localCache)
        #expect(await store.diagnostics.contains { $0.kind == .savedServerStateUnusable })
        // The file is the device's own purchase, carrying the customer's kept token: premium still shows.
        #expect(await store.isEntitled("premium"))
        await store.close()
    }
}
