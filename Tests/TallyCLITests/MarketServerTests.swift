import Foundation
import Testing

/// `tally market --server URL --key PUBLIC_KEY --user ID` against a real `tally serve`: two markets (two
/// devices of one customer, two App Store accounts) see the same premium and coins; spends go through the demo's
/// app backend step (`--backend-key`); with the server stopped the market shows the server's saved state.
@Suite("tally market linked to tally serve")
struct MarketServerTests {
    /// A sandbox and a server trusting it.
    final class World {
        let sandbox: MarketSandbox
        let server: LinkedServer

        init(ownership: String? = nil, signing: Bool = false, rateLimit: [String: Any]? = nil) throws {
            sandbox = try MarketSandbox()
            server = try LinkedServer(trusting: sandbox.directory, ownership: ownership, signing: signing,
                                      rateLimit: rateLimit)
        }

        /// The market's arguments for one device of `user` (through `url`, a ``SlowProxy``, when given).
        func arguments(_ device: String, user: String? = "shared", backend: Bool = false, url: URL? = nil) -> [String] {
            ["--data", sandbox.directory.path, "--account", "\(device)-id", "--device", device,
             "--server", (url ?? server.url).absoluteString, "--key", server.publicKey] + (user.map { ["--user", $0] } ?? [])
                + (backend ? ["--backend-key", server.secretKey] : [])
                + (server.serverPublicKey.map { ["--server-signing-key", $0.base64EncodedString()] } ?? [])
        }

        /// One market command, run to its end.
        func market(_ device: String, _ command: [String], user: String? = "shared",
                    backend: Bool = false, url: URL? = nil) throws -> TallyProcess.Output {
            try TallyProcess.run(["market"] + arguments(device, user: user, backend: backend, url: url) + command)
        }
    }

    @Test func twoMarketsOfOneCustomerSeeTheSamePremiumAndCoins() async throws {
        let world = try World()
        let tablet = try RunningMarket(world.arguments("tablet", backend: true))
        #expect(tablet.waitFor("Premium: LOCKED"), "\(tablet.text)")
        #expect(tablet.text.contains("State: the server's"))

        // A purchase on the phone (one command, its own process)…
        let bought = try world.market("phone", ["buy", "market.premium"])
        #expect(bought.status == 0, "\(bought.stderr)")
        #expect(try world.market("phone", ["buy", "market.coins.10"]).status == 0)
        #expect(try await world.server.coins("shared") == 10)
        // …shows on the tablet at its next refresh, without a restore.
        tablet.send("status")
        #expect(tablet.waitFor("Premium: UNLOCKED"), "\(tablet.text)")
        #expect(tablet.waitFor("COINS: 10"))

        // The tablet spends through the app backend step; the phone sees the server's balance.
        tablet.send("spend coins 3")
        #expect(tablet.waitFor("through the app backend"), "\(tablet.text)")
        #expect(tablet.waitFor("COINS: 7"))
        #expect(tablet.text.contains("demo only"))

        // A purchase in the running market is announced once, though the sandbox's update stream delivers it
        // again while the post to the server is under way.
        tablet.send("buy market.coins.10")
        #expect(tablet.waitFor("balanceChanged coins 17"), "\(tablet.text)")
        try await Task.sleep(for: .seconds(1))
        #expect(tablet.text.components(separatedBy: "event: purchased market.coins.10").count == 2, "\(tablet.text)")
        #expect(try tablet.quit() == 0)
        #expect(try await world.server.coins("shared") == 17)
        let phone = try world.market("phone", ["status", "--json"]).json()
        #expect((phone["balances"] as? [String: Any])?["coins"] as? Int == 17)
        #expect((phone["server"] as? [String: Any])?["stateSource"] as? String == "server")
        #expect(phone["nonConsumables"] as? [String] == ["market.premium"])

        // A spend above the server's balance is refused by the server (exit 1), nothing spent.
        let refused = try world.market("phone", ["spend", "coins", "18"], backend: true)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("more than the balance of 17"), "\(refused.stderr)")
        #expect(try await world.server.coins("shared") == 17)
    }

    /// One customer JSON (TallyCore's `CustomerDocument`): `status --json` carries the server's `customer` object's
    /// members as they are, `isActive` and `originalTransactionId` included, around the CLI's own members.
    @Test func statusJSONCarriesTheServersCustomerObject() async throws {
        let world = try World()
        for product in ["market.premium", "market.coins.10", "market.pro.monthly"] {
            let bought = try world.market("phone", ["buy", product])
            #expect(bought.status == 0, "\(bought.stderr)")
        }
        let status = try world.market("phone", ["status", "--json"]).json()
        let customer = try await world.server.customer("shared")
        #expect(Set(customer.keys).subtracting(["appUserId"]).isSubset(of: Set(status.keys)), "\(status.keys)")
        for key in customer.keys where key != "appUserId" {
            let theirs = try JSONSerialization.data(withJSONObject: customer[key]!, options: [.sortedKeys])
            let ours = try JSONSerialization.data(withJSONObject: status[key] ?? NSNull(), options: [.sortedKeys])
            #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self), "\(key)")
        }
        #expect((status["subscriptions"] as? [[String: Any]])?.first?["originalTransactionId"] is String)
        #expect(status["source"] as? String == "app")
        #expect(status["device"] as? String == "phone")
    }

    @Test func aRefundInTheSandboxReachesBothDevicesThroughTheServersNotifications() async throws {
        let world = try World()
        let appStore = try SandboxAPITests.Served(world.sandbox)
        defer { _ = appStore.stop() }
        let notifications = world.server.url.absoluteString + "/v1/notifications/apple"
        #expect(try world.sandbox.run("set", "notification-url", notifications).status == 0)
        let bought = try world.market("phone", ["buy", "market.premium"])
        let transactionId = try #require(DemoScriptTests.transactionId(in: bought.stdout, product: "market.premium"),
                                         "\(bought.stdout)")
        #expect(try world.market("tablet", ["status"]).stdout.contains("Premium: UNLOCKED"))

        #expect(try world.sandbox.run("refund", transactionId).status == 0)
        // The tablet's App Store account never had the purchase: only the server's REFUND notification tells it.
        #expect(try await DemoScriptTests.eventually {
            try world.market("tablet", ["status"]).stdout.contains("Premium: LOCKED")
        }, "the refund did not reach the tablet")
        #expect(try world.market("phone", ["status"]).stdout.contains("Premium: LOCKED"))
        #expect(try await world.server.customer("shared")["nonConsumables"] as? [String] == [])
    }

    @Test func aSpendAnswerWithoutTheBalanceIsAnErrorNotZero() throws {
        let world = try World()
        let proxy = try SlowProxy(to: world.server.url, in: world.sandbox.directory)
        #expect(try world.market("phone", ["buy", "market.coins.10"], url: proxy.url).status == 0)
        // A server whose answer names another currency's balance only: the demo's backend must not read 0.
        try proxy.rewrite("\"balances\":{\"coins\":", to: "\"balances\":{\"gems\":")
        let spent = try world.market("phone", ["spend", "coins", "3", "--json"], backend: true, url: proxy.url)
        #expect(spent.status != 0, "\(spent.stdout)")
        #expect(spent.stderr.contains("names no coins balance"), "\(spent.stderr)")
        #expect(!spent.stdout.contains("\"spent\""), "\(spent.stdout)")
    }

    @Test func withoutTheBackendKeyTheMarketDoesNotSpend() throws {
        let world = try World()
        #expect(try world.market("phone", ["buy", "market.coins.10"]).status == 0)
        let spent = try world.market("phone", ["spend", "coins", "3"])
        #expect(spent.status == 2)
        #expect(spent.stderr.contains("--backend-key"), "\(spent.stderr)")
        #expect(spent.stderr.contains("/currencies/coins/spend"))
        let status = try world.market("phone", ["status", "--json"]).json()
        #expect((status["balances"] as? [String: Any])?["coins"] as? Int == 10)
    }

    @Test func withTheServerStoppedTheMarketShowsTheServersSavedStateMarkedOffline() throws {
        let world = try World()
        #expect(try world.market("phone", ["buy", "market.premium"]).status == 0)
        // The tablet bought nothing; it read the server once.
        #expect(try world.market("tablet", ["status"]).stdout.contains("Premium: UNLOCKED"))
        world.server.stop()
        let offline = try world.market("tablet", ["status"])
        #expect(offline.status == 0)
        #expect(offline.stdout.contains("State: OFFLINE — the server's last state, saved"), "\(offline.stdout)")
        #expect(offline.stdout.contains("Premium: UNLOCKED"))
        let json = try world.market("tablet", ["status", "--json"]).json()
        let server = json["server"] as? [String: Any]
        #expect(server?["stateSource"] as? String == "savedServerState")
        #expect(server?["serverStateDate"] is String)
        #expect((server?["problem"] as? [String: Any])?["kind"] as? String == "unreachable", "\(json)")
    }

    @Test func aRateLimitedServerIsNamedSoWithItsRetryAfterNotUnreachable() throws {
        // One request per 100 s per customer, a burst of 3: the phone's purchase (a GET and a post) and the
        // tablet's first read are answered, the next read is a 429.
        // A burst of 6: the phone's purchase (its account-token ask, the post, the state read) and the tablet's
        // first status read fit; later reads are refused.
        let world = try World(rateLimit: ["requestsPerSecond": 0.01, "burst": 6])
        #expect(try world.market("phone", ["buy", "market.premium"]).status == 0)
        var limited: [String: Any]?
        for _ in 0..<8 where limited == nil {
            let json = try world.market("tablet", ["status", "--json"]).json()
            let server = json["server"] as? [String: Any]
            if let problem = server?["problem"] as? [String: Any] { limited = problem }
        }
        let problem = try #require(limited, "the tiny rate limit never answered 429")
        #expect(problem["kind"] as? String == "rateLimited", "\(problem)")
        #expect(problem["status"] as? Int == 429)
        let seconds = try #require(problem["retryAfter"] as? Int, "\(problem)")
        #expect((1...100).contains(seconds), "Retry-After of a 0.01/s bucket: \(seconds)")
        let text = try world.market("tablet", ["status"]).stdout
        #expect(text.contains("rate-limited by the server (429"), "\(text)")
        #expect(text.contains("retry after "), "\(text)")
        #expect(!text.contains("cannot be reached"), "\(text)")
        #expect(text.contains("Premium: UNLOCKED"), "the server's saved state is shown meanwhile: \(text)")
    }

    @Test func withTheServersSigningKeyPinnedAnEditedSavedStateIsNotShown() throws {
        let world = try World(signing: true)
        let bought = try world.market("phone", ["buy", "market.coins.10"])
        #expect(bought.status == 0, "\(bought.stderr)")
        #expect(!bought.stderr.contains("serverAnswersUnsigned"), "\(bought.stderr)")
        world.server.stop()
        let file = world.sandbox.directory.appendingPathComponent("apps/phone-id/phone/server-state.json")
        try SignedServerStateTests.forgeCoins(file, to: 999_999)
        let offline = try world.market("phone", ["status", "--json"])
        #expect(offline.status == 0)
        #expect(offline.stderr.contains("savedServerStateUnverified"), "\(offline.stderr)")
        let balances = try offline.json()["balances"] as? [String: Any]
        #expect((balances?["coins"] as? NSNumber)?.intValue != 999_999, "the forged file was believed: \(offline.stdout)")
    }

    @Test func loginOnAnotherAccountFollowsTheServersPolicy() async throws {
        for (policy, outcome) in [("transfer", "transferred"), ("keep", "kept")] {
            let world = try World(ownership: policy)
            #expect(try world.market("phone", ["buy", "market.premium"], user: "alice").status == 0)
            let login = try world.market("phone", ["login", "bob", "--json"], user: "alice")
            #expect(login.status == 0, "\(login.stderr)")
            let report = try login.json()
            #expect(report["ownership"] as? String == outcome)
            #expect(report[outcome] as? [String] == ["market.premium"])
            let bob = try await world.server.customer("bob")["nonConsumables"] as? [String]
            #expect(bob == (policy == "transfer" ? ["market.premium"] : []))
        }
    }

    @Test func linkOptionsGoTogether() throws {
        let world = try World()
        let missing = try TallyProcess.run(["market", "--data", world.sandbox.directory.path,
                                            "--server", world.server.url.absoluteString, "status"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--server and --key go together"))
        let badURL = try TallyProcess.run(["market", "--data", world.sandbox.directory.path, "--server", "ftp://x",
                                           "--key", "k", "--user", "u", "status"])
        #expect(badURL.status == 2)
        #expect(badURL.stderr.contains("not an http or https URL"))
    }
}
