import Foundation
import Testing

@Suite("tally sandbox: the command line contract")
struct SandboxCLITests {
    @Test func productsListsKnownIdsAndReportsUnknownOnesAsInvalid() throws {
        let store = try MarketSandbox()
        let output = try store.run("products", "--ids", "market.coins.10,market.nope", "--locale", "es_ES", "--json")
        #expect(output.status == 0)
        let json = try output.json()
        let products = try #require(json["products"] as? [[String: Any]])
        #expect(products.map { $0["id"] as? String } == ["market.coins.10"])
        #expect(products.first?["displayName"] as? String == "10 monedas")
        #expect(products.first?["kind"] as? String == "consumable")
        #expect((products.first?["displayPrice"] as? String)?.contains("0,99") == true)
        #expect(json["invalidIdentifiers"] as? [String] == ["market.nope"])
    }

    @Test func coinsTwiceAndPremiumShowInState() throws {
        let store = try MarketSandbox()
        for product in ["market.coins.10", "market.coins.10", "market.premium"] {
            let bought = try store.run("buy", product, "--json")
            #expect(bought.status == 0)
            #expect(try bought.json()["outcome"] as? String == "purchased")
        }
        let state = try store.run("state", "--json").json()
        #expect((state["balances"] as? [String: Any])?["coins"] as? Int == 20)
        #expect(Features.of(state) == ["no-ads", "premium"])
        #expect(state["nonConsumables"] as? [String] == ["market.premium"])
    }

    @Test func exitCodesSeparateRefusalsFromUsageErrors() throws {
        let store = try MarketSandbox()
        #expect(try store.run("fail", "purchase", "user-cancelled").status == 0)
        let cancelled = try store.run("buy", "market.premium", "--json")
        #expect(cancelled.status == 1)
        #expect(try cancelled.json()["outcome"] as? String == "cancelled")
        #expect(try store.run("set", "parental-controls", "on").status == 0)
        let refused = try store.run("buy", "market.premium", "--json")
        #expect(refused.status == 1)
        #expect(try refused.json()["outcome"] as? String == "failed")
        #expect(try store.run("buy").status == 2)
        #expect(try store.run("buy", "market.coins.10", "--quantity", "zero").status == 2)
        #expect(try store.run("advance", "3 fortnights").status == 2)
        #expect(try store.run("state", "--colour").status == 2)
        #expect(try store.run("approve", "purchase-404").status == 2)
    }

    @Test func askToBuyIsPendingUntilApproved() throws {
        let store = try MarketSandbox()
        #expect(try store.run("set", "ask-to-buy", "on", "--account", "kid").status == 0)
        let pending = try store.run("buy", "market.coins.100", "--account", "kid", "--json")
        #expect(pending.status == 0)
        let json = try pending.json()
        #expect(json["outcome"] as? String == "pending")
        let purchaseId = try #require(json["purchaseId"] as? String)
        let before = try store.run("state", "--account", "kid", "--json").json()
        #expect((before["balances"] as? [String: Any])?["coins"] as? Int ?? 0 == 0)
        #expect(try store.run("approve", purchaseId).status == 0)
        let after = try store.run("state", "--account", "kid", "--json").json()
        #expect((after["balances"] as? [String: Any])?["coins"] as? Int == 100)
    }

    @Test func subscriptionRenewsThenExpiresAsTheClockAdvances() throws {
        let store = try MarketSandbox()
        #expect(try store.run("buy", "market.plus.monthly").status == 0)
        #expect(try store.run("advance", "1M").status == 0)
        var state = try store.run("state", "--json").json()
        var subscription = try #require((state["subscriptions"] as? [[String: Any]])?.first)
        #expect(subscription["status"] as? String == "subscribed")
        #expect(subscription["willRenew"] as? Bool == true)
        #expect(try store.run("auto-renew", "market.plus.monthly", "off").status == 0)
        #expect(try store.run("advance", "1M").status == 0)
        state = try store.run("state", "--json").json()
        subscription = try #require((state["subscriptions"] as? [[String: Any]])?.first)
        #expect(subscription["status"] as? String == "expired")
        #expect(Features.of(state)?.contains("plus") == false)
    }

    @Test func aCorruptStateFileIsNamedAndLeftAlone() throws {
        let store = try MarketSandbox()
        let files = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
            .filter { $0.hasSuffix(".sqlite") }
        let file = store.directory.appendingPathComponent(try #require(files.first))
        try Data("{\"half\": ".utf8).write(to: file)
        let output = try store.run("state")
        #expect(output.status == 2)
        #expect(output.stderr.contains(file.lastPathComponent))
        #expect(try Data(contentsOf: file) == Data("{\"half\": ".utf8))
    }
}
