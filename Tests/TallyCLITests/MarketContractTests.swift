import Foundation
import Testing

@Suite("tally market and tally sandbox: one contract for the same situation")
struct MarketContractTests {
    @Test func oneShotMarketCommandsLeaveNoTemporaryStateFiles() throws {
        let store = try MarketSandbox()
        for round in 0..<25 {
            // A transaction left unfinished on the device: the market delivers it at launch while its
            // listener may pick it up too, and finishing it saves sandbox.json.
            #expect(try store.run("buy", "market.coins.10").status == 0)
            let status = try store.market("status")
            #expect(status.status == 0, "round \(round): \(status.stderr)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
            .filter { $0.hasPrefix("sandbox.json.tmp-") }
        #expect(leftovers.isEmpty, "left behind: \(leftovers)")
        #expect((try store.marketStatus()["balances"] as? [String: Any])?["coins"] as? Int == 250)
    }

    @Test func theSandboxAndTheMarketSayWhoseBalanceTheyShow() throws {
        let store = try MarketSandbox()
        #expect(try store.market("buy", "market.coins.10").status == 0)
        #expect(try store.market("spend", "coins", "4.5").status == 0)

        let appStore = try store.run("state")
        #expect(appStore.stdout.contains("App Store view"))
        #expect(appStore.stdout.contains("spends made in the app are not known here"))
        #expect(appStore.stdout.contains("COINS: 10 (purchased, net of refunds; before any spend in the app)"))
        let appStoreJSON = try store.run("state", "--json").json()
        #expect(appStoreJSON["source"] as? String == "appStore")
        #expect((appStoreJSON["balances"] as? [String: Any])?["coins"] as? Int == 10)

        let app = try store.market("status")
        #expect(app.stdout.contains("App view (account default, device default): balances after the app's spends"))
        #expect(app.stdout.contains("COINS: 5.5"))
        let appJSON = try store.marketStatus()
        #expect(appJSON["source"] as? String == "app")
        #expect((appJSON["balances"] as? [String: Any])?["coins"] as? Double == 5.5)
    }

    @Test func aCancelledRestoreIsCancelledNotABackendFailure() throws {
        let store = try MarketSandbox()
        #expect(try store.run("fail", "restore", "user-cancelled").status == 0)
        let cancelled = try store.market("restore", "--json")
        #expect(cancelled.status == 1)
        let json = try cancelled.json()
        #expect(json["outcome"] as? String == "cancelled")
        #expect(json["errorCode"] as? String == "cancelled")
        #expect(try store.run("fail", "restore", "user-cancelled").status == 0)
        let text = try store.market("restore")
        #expect(text.status == 1)
        #expect(text.stdout.contains("Cancelled: the restore was cancelled"))
        #expect(text.stdout.contains("event: cancelled restore"))
        #expect(!text.stdout.contains("event: failed"))
        let restored = try store.market("restore", "--json")
        #expect(restored.status == 0)
        #expect(try restored.json()["outcome"] as? String == "restored")
    }

    @Test(arguments: [
        // (setup, product, quantity, expected exit status in both)
        ([String](), "market.nope", "1", Int32(2)),
        ([], "market.premium", "2", 2),
        (["set", "parental-controls", "on"], "market.premium", "1", 1),
        (["fail", "purchase", "user-cancelled"], "market.premium", "1", 1),
        (["fail", "purchase", "network-error"], "market.premium", "1", 1),
        (["set", "ask-to-buy", "on"], "market.premium", "1", 0),
    ])
    func aPurchaseEndsWithTheSameExitStatusFromBothCommands(setup: [String], product: String, quantity: String,
                                                            expected: Int32) throws {
        for command in ["sandbox", "market"] {
            let store = try MarketSandbox()
            if !setup.isEmpty {
                #expect(try TallyProcess.run(["sandbox"] + setup + ["--data", store.directory.path]).status == 0)
            }
            let bought = try TallyProcess.run([command, "buy", product, "--quantity", quantity,
                                               "--data", store.directory.path])
            #expect(bought.status == expected, "tally \(command) buy \(product) after \(setup): \(bought.stderr)")
        }
    }

    @Test func aMissingOrDamagedSandboxIsBadInputForBoth() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-none-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try TallyProcess.run(["sandbox", "state", "--data", folder.path]).status == 2)
        #expect(try TallyProcess.run(["market", "status", "--data", folder.path]).status == 2)
        let store = try MarketSandbox()
        try Data("{\"half\": ".utf8).write(to: store.directory.appendingPathComponent("sandbox.sqlite"))
        #expect(try store.run("buy", "market.coins.10").status == 2)
        let market = try store.market("buy", "market.coins.10")
        #expect(market.status == 2)
        #expect(market.stderr.contains("sandbox.sqlite"))
    }

    @Test func anUnknownCurrencyIsBadInput() throws {
        let store = try MarketSandbox()
        #expect(try store.market("spend", "gems", "1").status == 2)
    }

    @Test func errorMessagesNameCommandsThatExist() throws {
        let store = try MarketSandbox()
        let messages = [try store.run("approve", "purchase-404").stderr, try store.run("refund", "404").stderr]
        for message in messages {
            let quoted = try #require(message.firstRange(of: "'tally sandbox "), "\(message)")
            let rest = message[quoted.upperBound...]
            let command = try #require(rest.split(separator: "'").first, "\(message)")
            let words = command.split(separator: " ").map { $0 == "ACCOUNT" ? "default" : String($0) }
            let named = try TallyProcess.run(["sandbox"] + words + ["--data", store.directory.path])
            #expect(named.status == 0, "'tally sandbox \(command)' from \(message): \(named.stderr)")
        }
    }

    @Test func theMarketSaysWhetherPaymentsAreAllowed() throws {
        let store = try MarketSandbox()
        #expect(try store.run("set", "parental-controls", "on", "--account", "kid").status == 0)
        #expect(try store.marketStatus("--account", "kid")["canMakePayments"] as? Bool == false)
        #expect(try store.market("status", "--account", "kid").stdout
            .contains("Payments: not allowed (parental controls)"))
        #expect(try store.marketStatus()["canMakePayments"] as? Bool == true)
        #expect(try store.run("set", "parental-controls", "off", "--account", "kid").status == 0)
        #expect(try store.marketStatus("--account", "kid")["canMakePayments"] as? Bool == true)
    }
}
