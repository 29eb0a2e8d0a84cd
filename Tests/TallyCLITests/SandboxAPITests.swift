import Foundation
import Testing

/// `tally sandbox serve` plays the App Store Server API, and Apple's own Python `AppStoreServerAPIClient` is
/// the test: every answer it parses is checked against the sandbox's own state.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["CI"] == "true"
                             || ProcessInfo.processInfo.environment["TALLY_SKIP_APPLE_LIBRARY"] != "1",
                             "TALLY_SKIP_APPLE_LIBRARY=1 (ignored under CI=true)"))
struct SandboxAPITests {
    /// A running `tally sandbox serve` on a free loopback port, stopped with SIGTERM.
    final class Served {
        let process = Process()
        let output = Pipe()
        private(set) var baseURL = ""

        init(_ sandbox: MarketSandbox, extra: [String] = []) throws {
            process.executableURL = TallyProcess.productsDirectory.appendingPathComponent("tally")
            process.arguments = ["sandbox", "serve", "--listen", "127.0.0.1:0", "--data", sandbox.directory.path] + extra
            process.standardOutput = output
            try process.run()
            var text = ""
            let deadline = Date().addingTimeInterval(20)
            while !text.contains("\n"), Date() < deadline {
                text += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            }
            guard let range = text.range(of: "http://"), let end = text.range(of: "/inApps") else {
                throw CLITestError("tally sandbox serve printed no address: \(text)")
            }
            baseURL = String(text[range.lowerBound..<end.lowerBound])
        }

        func stop() -> Int32 {
            process.terminate()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    struct Key { var id: String; var issuer: String; var path: String }

    func apiKey(_ sandbox: MarketSandbox) throws -> Key {
        let made = try sandbox.run("api-key", "--json")
        let object = try made.json()
        guard made.status == 0, let id = object["keyId"] as? String, let issuer = object["issuerId"] as? String,
              let path = object["privateKeyPath"] as? String else { throw CLITestError("api-key: \(made.stderr)") }
        return Key(id: id, issuer: issuer, path: path)
    }

    private func appleClient(_ served: Served, _ key: Key, root: String, coin: String, subscription: String,
                             mode: String = "all") throws -> [String: Any] {
        try ApplePythonClient.run("apple_api_client.py", [served.baseURL, key.path, key.id, key.issuer,
                                                          "com.example.market", root, coin, subscription, mode])
    }

    /// The sandbox's own transactions of the default account, in purchase order.
    private func sandboxTransactions(_ sandbox: MarketSandbox) throws -> [[String: Any]] {
        let items = try sandbox.run("history", "--json").json()["transactions"] as? [[String: Any]] ?? []
        return items.compactMap { $0["transaction"] as? [String: Any] }
    }

    @Test func applesClientWalksEveryEndpointAgainstTheSandbox() throws {
        let sandbox = try MarketSandbox()
        #expect(try sandbox.run("buy", "market.pro.monthly").status == 0)
        #expect(try sandbox.run("advance", "3y").status == 0)          // 36 renewals
        for _ in 0..<7 { #expect(try sandbox.run("buy", "market.coins.10").status == 0) }
        #expect(try sandbox.run("buy", "market.premium").status == 0)
        let transactions = try sandboxTransactions(sandbox)
        #expect(transactions.count == 45)
        let ids = transactions.compactMap { $0["transactionId"] as? String }
        let coins = transactions.filter { $0["productId"] as? String == "market.coins.10" }.compactMap { $0["transactionId"] as? String }
        let premium = try #require(transactions.first { $0["productId"] as? String == "market.premium" }?["transactionId"] as? String)
        #expect(try sandbox.run("refund", premium).status == 0)
        let subscription = try #require(ids.first)
        let key = try apiKey(sandbox)
        let served = try Served(sandbox)
        defer { #expect(served.stop() == 0, "SIGTERM stops it cleanly") }
        let seen = try appleClient(served, key, root: try sandbox.rootDER(), coin: try #require(coins.first),
                                   subscription: subscription)

        #expect(seen["info"] as? String == coins.first)
        let all = try #require(seen["all"] as? [String: Any])
        #expect(Set(all["ids"] as? [String] ?? []) == Set(ids), "every transaction, once: \(all)")
        #expect((all["ids"] as? [String])?.count == 45)
        #expect(all["pages"] as? Int == 3, "20 a page: \(all["pages"] ?? "?")")
        #expect(all["environment"] as? String == "Sandbox" && all["bundleId"] as? String == "com.example.market")
        let ascending = all["ids"] as? [String] ?? []
        #expect(ascending.last == premium, "the refund changed it last, so it comes last")
        #expect((seen["descending"] as? [String: Any])?["ids"] as? [String] == ascending.reversed())
        #expect(Set((seen["consumables"] as? [String: Any])?["ids"] as? [String] ?? []) == Set(coins))
        #expect((seen["revoked"] as? [String: Any])?["ids"] as? [String] == [premium])
        let v1 = Set((seen["v1"] as? [String: Any])?["ids"] as? [String] ?? [])
        #expect(v1 == Set(ids), "the coins were never finished by an app, so V1 lists them too")
        let after = seen["afterFinalRevision"] as? [String: Any]
        #expect(after?["count"] as? Int == 0 && after?["hasMore"] as? Bool == false, "the final revision: nothing newer")

        let statuses = try #require(seen["statuses"] as? [[String: Any]])
        #expect(statuses.count == 1)
        let last = (statuses.first?["last"] as? [[String: Any]])?.first
        #expect(last?["status"] as? Int == 1 && last?["original"] as? String == subscription)
        let latestRenewal = transactions.filter { $0["originalTransactionId"] as? String == subscription }.last
        #expect(last?["transaction"] as? String == latestRenewal?["transactionId"] as? String)
        #expect(last?["renewalProduct"] as? String == "market.pro.monthly")
        #expect(seen["expiredOnly"] as? Int == 0)

        func error(_ name: String) -> (Int?, Int?) {
            let object = seen[name] as? [String: Any]
            return (object?["status"] as? Int, object?["code"] as? Int)
        }
        #expect(error("notFound") == (404, 4_040_010))
        #expect(error("invalidId") == (400, 4_000_006))
        #expect(error("badRevision") == (400, 4_000_005))
        #expect(error("wrongKey").0 == 401)
    }

    @Test func aRateLimitAnswers429AsAppleDoes() throws {
        let sandbox = try MarketSandbox()
        #expect(try sandbox.run("buy", "market.coins.10").status == 0)
        let coin = try #require(try sandboxTransactions(sandbox).first?["transactionId"] as? String)
        let key = try apiKey(sandbox)
        let served = try Served(sandbox, extra: ["--rate-limit", "2"])
        defer { _ = served.stop() }
        let seen = try appleClient(served, key, root: try sandbox.rootDER(), coin: coin, subscription: coin, mode: "burst")
        let burst = try #require(seen["burst"] as? [[String: Any]])
        let limited = burst.filter { $0["status"] as? Int == 429 }
        #expect(burst.count == 12)
        #expect(burst.prefix(2).allSatisfy { $0["ok"] as? Bool == true }, "the burst allowance: \(burst)")
        #expect(!limited.isEmpty && limited.allSatisfy { $0["code"] as? Int == 4_290_000 }, "\(burst)")
    }
}
