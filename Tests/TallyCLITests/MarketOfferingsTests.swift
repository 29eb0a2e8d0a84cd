import Foundation
import Testing

/// `tally market offerings` linked to a real `tally serve` seeded with the Market example's offerings: the current
/// offering with product ids and localized prices, its version and source; offline the copy kept by the last run;
/// interactive, an offering changed with `curl` shows at the market's next refresh without a restart.
@Suite("tally market offerings")
struct MarketOfferingsTests {
    static func arguments(_ world: OfferingsLinkTests.World, user: String = "user-1") -> [String] {
        ["--data", world.sandbox.directory.path, "--server", world.server.url.absoluteString,
         "--key", world.server.publicKey, "--user", user]
    }

    @Test func theCurrentOfferingIsPrintedWithPricesVersionAndSourceAndOfflineTheKeptCopy() async throws {
        let world = try OfferingsLinkTests.World()
        let shown = try TallyProcess.run(["market"] + Self.arguments(world) + ["offerings"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("Offering default (version 1, from the server) — Everything the market sells"),
                "\(shown.stdout)")
        #expect(shown.stdout.contains("  monthly  market.pro.monthly  $"), "\(shown.stdout)")
        #expect(shown.stdout.contains("  coins  market.coins.100  $"), "\(shown.stdout)")

        let onboarding = try TallyProcess.run(["market"] + Self.arguments(world)
            + ["offerings", "--placement", "settings", "--json"])
        #expect(onboarding.status == 0, "\(onboarding.stderr)")
        let json = try onboarding.json()
        #expect(json["source"] as? String == "server")
        #expect(json["version"] as? Int == 1)
        #expect(json["placement"] as? String == "settings")
        let current = try #require(json["current"] as? [String: Any])
        #expect(current["id"] as? String == "default")
        let packages = try #require(current["packages"] as? [[String: Any]])
        #expect(packages.map { $0["productId"] as? String } == ["market.pro.monthly", "market.pro.yearly",
                                                                "market.premium", "market.coins.100"])
        #expect(packages.allSatisfy { ($0["displayPrice"] as? String)?.isEmpty == false })

        world.server.stop()
        let offline = try TallyProcess.run(["market"] + Self.arguments(world) + ["offerings"])
        #expect(offline.status == 0, "never an error offline: \(offline.stderr)")
        #expect(offline.stdout.contains("Offering default (version 1, from the copy kept offline)"), "\(offline.stdout)")
        #expect(offline.stdout.contains("server: the server cannot be reached"), "\(offline.stdout)")
    }

    @Test func withoutAServerTheOfferingIsTheBundledCatalog() throws {
        let sandbox = try MarketSandbox()
        let shown = try TallyProcess.run(["market", "--data", sandbox.directory.path, "offerings", "--json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let json = try shown.json()
        #expect(json["source"] as? String == "bundled")
        #expect(json["version"] == nil)
        let current = try #require(json["current"] as? [String: Any])
        #expect(current["id"] as? String == "bundled")
        #expect((current["packages"] as? [[String: Any]])?.count == 8, "every product of Market.storekit")
        let usage = try TallyProcess.run(["market", "--data", sandbox.directory.path, "offerings", "--placement", ""])
        #expect(usage.status == 2)
    }

    @Test func aChangeMadeWithCurlShowsInTheRunningMarketAtItsNextRefresh() async throws {
        let world = try OfferingsLinkTests.World()
        let market = try TerminalMarket(Self.arguments(world))
        #expect(market.waitFor("Offering default (version 1, from the server)"), "\(market.text)")
        #expect(market.waitFor("Commands: products"), "\(market.text)")
        let put = try await world.putWithCurl { $0["current"] = "intro" }
        #expect(put.status == 200, "\(put.body)")
        #expect(market.waitFor("offeringsChanged intro v2 (server): monthly market.pro.monthly $"), "\(market.text)")
        let before = market.text.count
        market.type("offerings")
        #expect(market.waitFor("Offering intro (version 2, from the server) — A first paywall: one subscription",
                               after: before), "\(market.text)")
        #expect(market.quit() == 0)
    }
}
