import Foundation
import Testing

extension MarketSandbox {
    /// Runs `tally market <arguments> --data <this directory>`.
    func market(_ arguments: String..., input: String = "") throws -> TallyProcess.Output {
        try TallyProcess.run(["market"] + arguments + ["--data", directory.path], input: input)
    }

    /// `tally market status --json [extra…]` parsed.
    func marketStatus(_ extra: String...) throws -> [String: Any] {
        let output = try TallyProcess.run(["market", "status", "--json", "--data", directory.path] + extra)
        guard output.status == 0 else { throw CLITestError("status failed: \(output.stderr)") }
        return try output.json()
    }
}

private func coins(_ status: [String: Any]) -> Int {
    (status["balances"] as? [String: Any])?["coins"] as? Int ?? 0
}

@Suite("tally market: the demo shop over the sandbox")
struct MarketCLITests {
    @Test func coinsBoughtTwiceAddUp() throws {
        let store = try MarketSandbox()
        for _ in 0..<2 {
            let bought = try store.market("buy", "market.coins.10", "--json")
            #expect(bought.status == 0)
            #expect(try bought.json()["outcome"] as? String == "purchased")
        }
        let status = try store.marketStatus()
        #expect(coins(status) == 20)
        #expect(status["pending"] as? [Any] != nil)
        #expect(try store.market("status").stdout.contains("COINS: 20"))
        #expect(try store.market("buy", "market.coins.100", "--quantity", "2").status == 0)
        #expect(coins(try store.marketStatus()) == 220)
    }

    @Test func premiumUnlockSurvivesARestart() throws {
        let store = try MarketSandbox()
        #expect(try store.market("status").stdout.contains("Premium: LOCKED"))
        #expect(try store.market("buy", "market.premium").status == 0)
        let later = try store.market("status")
        #expect(later.stdout.contains("Premium: UNLOCKED"))
        #expect(later.stdout.contains("Features: no-ads"))
        #expect(try Features.of(store.marketStatus()) == ["no-ads", "premium"])
    }

    @Test func restoreOnASecondDeviceBringsPremiumAndSubscriptionsButNotCoins() throws {
        let store = try MarketSandbox()
        for product in ["market.coins.10", "market.premium", "market.pro.monthly"] {
            #expect(try store.market("buy", product).status == 0)
        }
        let before = try store.marketStatus("--device", "ipad")
        #expect(Features.of(before) == [])
        let restored = try store.market("restore", "--device", "ipad")
        #expect(restored.status == 0)
        #expect(restored.stdout.contains("Restored market.premium"))
        #expect(restored.stdout.contains("Restored market.pro.monthly"))
        let after = try store.marketStatus("--device", "ipad")
        #expect(Features.of(after)?.contains("premium") == true)
        #expect((after["subscriptions"] as? [[String: Any]])?.first?["productId"] as? String == "market.pro.monthly")
        #expect(coins(after) == 0)
        #expect(coins(try store.marketStatus()) == 10)
        let nothing = try store.market("restore", "--account", "newcomer")
        #expect(nothing.status == 0)
        #expect(nothing.stdout.contains("Nothing to restore"))
    }

    @Test func cancelledIsDistinctFromNotAllowed() throws {
        let store = try MarketSandbox()
        #expect(try store.run("fail", "purchase", "user-cancelled").status == 0)
        let cancelled = try store.market("buy", "market.premium")
        #expect(cancelled.status == 1)
        #expect(cancelled.stdout.contains("Cancelled"))
        #expect(cancelled.stdout.contains("cancelled"))
        #expect(!cancelled.stdout.contains("not allowed"))
        #expect(try store.run("set", "parental-controls", "on").status == 0)
        let refused = try store.market("buy", "market.premium", "--json")
        #expect(refused.status == 1)
        let json = try refused.json()
        #expect(json["outcome"] as? String == "failed")
        #expect(json["errorCode"] as? String == "purchaseNotAllowed")
        #expect((json["error"] as? String)?.contains("not allowed") == true)
        #expect(try Features.of(store.marketStatus()) == [])
    }

    @Test func badInputIsAUsageErrorNamingTheProblem() throws {
        let store = try MarketSandbox()
        let unknown = try store.market("buy", "market.nope")
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown product 'market.nope'"))
        #expect(try store.market("buy").status == 2)
        #expect(try store.market("buy", "market.coins.10", "--quantity", "none").status == 2)
        #expect(try store.market("spend", "coins", "-3").status == 2)
        #expect(try store.market("spend", "gems", "1").stderr.contains("unknown currency 'gems'"))
        #expect(try store.market("dance").status == 2)
        #expect(try store.market("status", "--colour", "red").status == 2)
        #expect(try store.market("status", "--account", "../up").status == 2)
    }

    @Test func spendingMoreThanTheBalanceIsRefusedWithTheBalance() throws {
        let store = try MarketSandbox()
        #expect(try store.market("buy", "market.coins.10").status == 0)
        let spent = try store.market("spend", "coins", "4")
        #expect(spent.status == 0)
        #expect(spent.stdout.contains("COINS: 6"))
        let refused = try store.market("spend", "coins", "7")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("balance of 6"))
        #expect(coins(try store.marketStatus()) == 6)
    }

    @Test func askToBuyIsPendingUntilTheSandboxApprovesIt() throws {
        let store = try MarketSandbox()
        #expect(try store.run("set", "ask-to-buy", "on", "--account", "kid").status == 0)
        let asked = try store.market("buy", "market.coins.100", "--account", "kid", "--json")
        #expect(asked.status == 0)
        let json = try asked.json()
        #expect(json["outcome"] as? String == "pending")
        let purchaseId = try #require(json["purchaseId"] as? String)
        let waiting = try store.marketStatus("--account", "kid")
        let pending = try #require(waiting["pending"] as? [[String: Any]])
        #expect(pending.map { $0["purchaseId"] as? String } == [purchaseId])
        #expect(coins(waiting) == 0)
        #expect(try store.run("approve", purchaseId).status == 0)
        let next = try store.market("status", "--account", "kid")
        #expect(next.stdout.contains("event: purchased market.coins.100"))
        #expect(next.stdout.contains("context screen=market"))
        #expect(next.stdout.contains("COINS: 100"))
        let after = try store.marketStatus("--account", "kid")
        #expect(coins(after) == 100)
        #expect((after["pending"] as? [Any])?.isEmpty == true)
    }

    @Test func aRefundRevokesPremiumAndClawsBackSpentCoinsAsDebt() throws {
        let store = try MarketSandbox()
        let premium = try store.market("buy", "market.premium", "--json").json()
        let coinsBought = try store.market("buy", "market.coins.10", "--json").json()
        #expect(try store.market("spend", "coins", "10").status == 0)
        for bought in [premium, coinsBought] {
            let id = try #require(bought["transactionId"] as? String)
            #expect(try store.run("refund", id).status == 0)
        }
        let status = try store.market("status")
        #expect(status.stdout.contains("event: revoked market.premium"))
        #expect(status.stdout.contains("Premium: LOCKED"))
        let json = try store.marketStatus()
        #expect((json["debts"] as? [String: Any])?["coins"] as? Int == 10)
        #expect(coins(json) == 0)
    }

    @Test func aSubscriptionRenewsAndExpiresAsTheSandboxClockMoves() throws {
        let store = try MarketSandbox()
        #expect(try store.market("buy", "market.pro.monthly").status == 0)
        #expect(try store.run("advance", "1M").status == 0)
        let renewed = try store.market("status")
        #expect(renewed.stdout.contains("event: renewed market.pro.monthly"))
        #expect(renewed.stdout.contains("Features: plus, pro"))
        #expect(try store.run("auto-renew", "market.pro.monthly", "off").status == 0)
        #expect(try store.run("advance", "1M").status == 0)
        let expired = try store.market("status")
        #expect(expired.stdout.contains("Features: none"))
        let subscription = try #require((try store.marketStatus()["subscriptions"] as? [[String: Any]])?.first)
        #expect(subscription["status"] as? String == "expired")
    }

    @Test func interactiveMarketReadsCommandsFromStandardInput() throws {
        let store = try MarketSandbox()
        let session = try store.market(input: "products\nbuy market.coins.10\nbuy market.premium\nstatus\nquit\n")
        #expect(session.status == 0)
        let out = session.stdout
        #expect(out.contains("market.coins.10  $0.99  10 Coins"))
        #expect(out.contains("market.pro.monthly  $4.99 / P1M  Pro Monthly"))
        #expect(out.contains("COINS: 0"))
        #expect(out.contains("Premium: LOCKED"))
        #expect(out.contains("COINS: 10"))
        #expect(out.contains("Premium: UNLOCKED"))
        #expect(out.contains("event: purchased market.coins.10"))
        #expect(out.contains("event: balanceChanged coins 10"))
        #expect(out.contains("event: purchased market.premium"))
        // The status after the purchase says UNLOCKED, and so does the event as it happens.
        let unlocked = try #require(out.range(of: "Premium: UNLOCKED", options: .backwards))
        let boughtPremium = try #require(out.range(of: "Purchased market.premium"))
        #expect(boughtPremium.lowerBound < unlocked.lowerBound)
        #expect(out.contains("event: entitlementsChanged gained no-ads, premium; lost none\nPremium: UNLOCKED"))
    }

    @Test func aFreshFolderNeedsConfigAndThenCreatesTheSandbox() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-market-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = try TallyProcess.run(["market", "status", "--data", folder.path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--config"))
        let config = TallyProcess.packageRoot.appendingPathComponent("Examples/Market/Market.storekit").path
        let created = try TallyProcess.run(["market", "products", "--locale", "es_ES", "--config", config,
                                            "--data", folder.path])
        #expect(created.status == 0)
        #expect(created.stdout.contains("10 monedas"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("sandbox.sqlite").path))
        let sandboxSide = try TallyProcess.run(["sandbox", "state", "--json", "--data", folder.path])
        #expect(sandboxSide.status == 0)
    }
}
