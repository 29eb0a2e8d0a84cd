import Foundation
import Tally
import TallyCore
import TallySandbox
import Testing

/// Issue 28, *Identity*, through the engine against a real `tally serve`, and through the market binary: anonymous
/// first, `logIn` aliases the anonymous customer (its purchases follow under both policies), `logOut` leaves nothing
/// of the previous customer on the device, also offline; attributes.
@Suite("Anonymous first: logIn, logOut and attributes against a real server")
struct IdentityTests {
    typealias Scratch = ServerLinkTests.Scratch

    static func owned(_ server: LinkedServer, _ appUserId: String) async throws -> [String] {
        try await server.customer(appUserId)["nonConsumables"] as? [String] ?? []
    }

    @Test(arguments: ["transfer", "keep"])
    func anAnonymousPurchaseIsTheIdentifiedCustomersAfterLogIn(_ ownership: String) async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, ownership: ownership)
        var store = try await scratch.store(server, user: nil)
        let anonymous = try #require(await store.appUserId)
        #expect(AnonymousCustomerId.isAnonymous(anonymous), "\(anonymous)")
        #expect(await store.isAnonymous)
        _ = try await store.purchase(ServerLinkTests.premium)
        _ = try await store.purchase(ServerLinkTests.coins)
        #expect(try await Self.owned(server, anonymous) == [ServerLinkTests.premium], "the purchase has an owner")
        await store.close()
        store = try await scratch.store(server, user: nil)
        #expect(await store.appUserId == anonymous, "the anonymous id is kept in the data directory")

        let change = try await store.logIn("alice")
        #expect(change.previousAppUserId == anonymous && change.appUserId == "alice")
        #expect(await store.appUserId == "alice")
        #expect(await !store.isAnonymous)
        #expect(await store.stateSource == .server)
        #expect(await store.isEntitled("premium"))
        #expect(await store.balance("coins") == 10, "consumables follow the alias too, under \(ownership)")
        #expect(try await Self.owned(server, "alice") == [ServerLinkTests.premium])
        #expect(try await server.coins("alice") == 10)
        let byAnonymous = try await server.customer(anonymous)
        #expect(byAnonymous["appUserId"] as? String == "alice", "GET by the anonymous id answers alice")
        #expect(byAnonymous["nonConsumables"] as? [String] == [ServerLinkTests.premium])
        // A purchase after logIn is alice's; the device's token (minted for the anonymous id) is hers now.
        _ = try await store.purchase(ServerLinkTests.coins)
        #expect(try await server.coins("alice") == 20)
        await store.close()
        store = try await scratch.store(server, user: nil)
        #expect(await store.appUserId == "alice", "the logged-in customer is kept for the next launch")
        #expect(try await store.logIn("alice").posted.isEmpty, "logging in as the same customer changes nothing")
        await store.close()
    }

    @Test func logOutShowsNothingOfThePreviousCustomerAlsoOffline() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, ownership: "keep")
        var store = try await scratch.store(server, user: nil)
        _ = try await store.purchase(ServerLinkTests.premium)
        _ = try await store.logIn("alice")
        _ = try await store.purchase(ServerLinkTests.coins)
        #expect(await store.isEntitled("premium"))
        #expect(await store.balance("coins") == 10)
        let appDirectory = scratch.app("default-default")
        let saved = appDirectory.appendingPathComponent("server-state.json")
        #expect(FileManager.default.fileExists(atPath: saved.path))
        _ = await store.offerings()
        let offeringsFile = appDirectory.appendingPathComponent("offerings-cache.json")
        #expect((try? String(contentsOf: offeringsFile, encoding: .utf8))?.contains("\"alice\"") == true,
                "alice's offerings answer is kept")

        server.stop()
        let fresh = try await store.logOut()
        #expect(AnonymousCustomerId.isAnonymous(fresh))
        #expect(await store.appUserId == fresh)
        #expect(await store.isAnonymous)
        #expect(await !store.isEntitled("premium"), "offline, nothing of alice is shown")
        #expect(await store.balance("coins") == 0)
        #expect(await store.state.nonConsumables.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: saved.path), "alice's saved state is deleted")
        let tokens = (try? String(contentsOf: appDirectory.appendingPathComponent("account-tokens.json"), encoding: .utf8)) ?? ""
        #expect(!tokens.contains("\"alice\""), "alice's token is no longer kept: \(tokens)")
        #expect((try? String(contentsOf: offeringsFile, encoding: .utf8))?.contains("\"alice\"") == false,
                "nor her offerings answer")
        await store.close()

        store = try await scratch.store(server, user: nil)  // a cold start, still offline
        #expect(await store.appUserId == fresh)
        #expect(await !store.isEntitled("premium"))
        #expect(await store.balance("coins") == 0)
        try server.start()
        #expect(await store.refresh().nonConsumables.isEmpty)
        #expect(await store.stateSource == .server)
        #expect(try await Self.owned(server, "alice") == [ServerLinkTests.premium], "alice keeps what is hers")
        #expect(try await server.coins("alice") == 10)
        #expect(try await Self.owned(server, fresh).isEmpty)
        await store.close()
    }

    @Test func aPurchaseWaitingForTheServerAtLogOutIsPostedForThePreviousCustomer() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox)
        let store = try await scratch.store(server, user: "alice")
        server.stop()
        _ = try await store.purchase(ServerLinkTests.premium)
        #expect(await store.isEntitled("premium"), "offline, alice's purchase not posted yet is shown")
        let fresh = try await store.logOut()
        #expect(await !store.isEntitled("premium"), "nor is it shown after logOut")
        try server.start()
        #expect(try await ServerLinkTests.eventually {
            try await Self.owned(server, "alice") == [ServerLinkTests.premium]
        }, "posted for alice once the server answers")
        #expect(try await Self.owned(server, fresh).isEmpty, "never for the new anonymous customer")
        #expect(await !store.refresh().isEntitled("premium"))
        await store.close()
    }

    @Test func anAnonymousIdAliasedElsewhereIsRefusedTypedAndNothingChanges() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox)
        let anonymous = AnonymousCustomerId.make()
        let first = try await scratch.store(server, user: anonymous, device: "phone")
        _ = try await first.logIn("alice")
        await first.close()
        let second = try await scratch.store(server, user: anonymous, device: "tablet")
        do {
            _ = try await second.logIn("bob")
            Issue.record("an anonymous id aliased to alice was aliased to bob")
        } catch {
            #expect(error.code == .serverRefused && error.serverCode == "alias_conflict", "\(error)")
        }
        #expect(await second.appUserId == anonymous, "nothing changed")
        do {
            _ = try await second.logIn(AnonymousCustomerId.make())
            Issue.record("logged in as an anonymous id")
        } catch {
            #expect(error.code == .invalidValue)
        }
        await second.close()
    }

    @Test func attributesReachTheServerWithinTheirBounds() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox)
        let store = try await scratch.store(server, user: "alice")
        try await store.setAttributes(["email": "alice@example.com", "campaign": "spring"])
        let (status, body) = try await server.request("GET", "/v1/customers/alice/attributes")
        #expect(status == 200)
        #expect(body["attributes"] as? [String: String] == ["email": "alice@example.com", "campaign": "spring"])
        do {
            try await store.setAttributes([String(repeating: "k", count: 65): "v"])
            Issue.record("a 65-byte key was sent")
        } catch {
            #expect(error.code == .invalidValue)
        }
        var many: [String: String] = [:]
        for index in 0..<99 { many["k\(index)"] = "v" }
        do {
            try await store.setAttributes(many)
            Issue.record("101 attributes were kept")
        } catch {
            #expect(error.code == .serverRefused && error.serverCode == "invalid_attributes", "\(error)")
        }
        await store.close()
    }

    @Test func theMarketStartsAnonymousLogsInAndOut() async throws {
        let world = try MarketServerTests.World(ownership: "keep")
        let bought = try world.market("phone", ["buy", "market.premium"], user: nil)
        #expect(bought.status == 0, "\(bought.stderr)")
        let anonymous = try #require((try world.market("phone", ["status", "--json"], user: nil).json()["server"]
            as? [String: Any])?["appUserId"] as? String)
        #expect(AnonymousCustomerId.isAnonymous(anonymous))
        let login = try world.market("phone", ["login", "alice"], user: nil)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(try await world.server.customer("alice")["nonConsumables"] as? [String] == ["market.premium"])
        let status = try world.market("phone", ["status"], user: nil).stdout
        #expect(status.contains("Premium: UNLOCKED") && status.contains("customer alice"), "\(status)")
        let attributes = try world.market("phone", ["attributes", "email=a@b.c"], user: nil)
        #expect(attributes.status == 0, "\(attributes.stderr)")
        let (_, kept) = try await world.server.request("GET", "/v1/customers/alice/attributes")
        #expect(kept["attributes"] as? [String: String] == ["email": "a@b.c"])
        world.server.stop()
        let logout = try world.market("phone", ["logout"], user: nil)
        #expect(logout.status == 0, "\(logout.stderr)")
        let after = try world.market("phone", ["status"], user: nil).stdout
        #expect(!after.contains("Premium: UNLOCKED") && !after.contains("alice"), "offline after logout: \(after)")
    }

    @Test @MainActor @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)  // StoreModel
    func theModelsShowTheCustomerAndSignInAndOut() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox)
        let store = try await scratch.store(server, user: nil)
        let model = await StoreModel(store: store)
        let observable = await ObservableStoreModel(store: store)
        let anonymous = try #require(model.appUserId)
        #expect(model.isAnonymous && observable.isAnonymous && observable.appUserId == anonymous)
        _ = try await store.purchase(ServerLinkTests.premium)
        let change = await model.logIn("alice")
        #expect(change?.appUserId == "alice", "\(String(describing: model.lastError))")
        #expect(model.appUserId == "alice" && !model.isAnonymous)
        #expect(model.isEntitled("premium"), "what the anonymous customer bought is alice's")
        #expect(await model.setAttributes(["email": "alice@example.com"]))
        let fresh = try #require(await observable.logOut())
        #expect(observable.appUserId == fresh && observable.isAnonymous)
        await model.reload()
        #expect(model.appUserId == fresh && !model.isEntitled("premium"))
        #expect(await model.logIn(AnonymousCustomerId.make()) == nil)
        #expect(model.lastError?.code == .invalidValue)
        await store.close()
    }
}
