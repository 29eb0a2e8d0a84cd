import Foundation
import Tally
import TallyCore

/// `tally-bench engine`'s second part: the same durable purchases through a ``ServerLink`` to a real
/// `tally serve` (engine + HTTP + the server's verification and durable commit before each finish), beside the
/// engine alone in the same run, with each purchase's latency.
extension EngineBenchmark {
    static let linkedPurchases = 1_000

    /// The Market example's coins, as the engine sees them (the server reads `Examples/Market`).
    static let marketCoins = "market.coins.10"

    /// Measures the engine alone and linked, on the Market example's coins, and reports both rates and the
    /// latency a server link adds per purchase (p50, p99). Skipped (with a line saying so) without a `tally`
    /// binary beside this one.
    static func runLinked(root: URL) async throws {
        guard let tally = BenchTools.tally() else {
            Report.line("server link: skipped, no tally binary beside tally-bench (swift build -c release --product tally)")
            return
        }
        let catalog = Catalog(products: [CatalogProduct(id: marketCoins, kind: .consumable, price: Decimal(string: "0.99")!,
                                                 currency: "USD")])
        let configuration = AppConfiguration(bundleId: ServerBenchSetup.bundleId, entitlements: [:],
                                             currencies: ["coins": [marketCoins: 10]], nonRenewingDurations: [:])
        let count = linkedPurchases

        let aloneBackend = try EngineBenchBackend(catalog: catalog, bundleId: ServerBenchSetup.bundleId)
        try await aloneBackend.prepare(count, of: marketCoins)
        let alone = try await timedPurchases(backend: aloneBackend, catalog: catalog, configuration: configuration,
                                             directory: root.appendingPathComponent("alone"), link: nil, count: count)

        let backend = try EngineBenchBackend(catalog: catalog, bundleId: ServerBenchSetup.bundleId)
        try await backend.prepare(count, of: marketCoins)
        let folder = root.appendingPathComponent("linked-server")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (config, publicKey) = try linkedServerConfiguration(tally: tally, folder: folder, rootPEM: backend.rootPEM)
        let server = try TallyServeProcess(tally: tally, config: config, folder: folder)
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)")!
        let link = ServerLink(url: url, publicKey: publicKey, appUserId: "bench-user")
        let linked = try await timedPurchases(backend: backend, catalog: catalog, configuration: configuration,
                                              directory: root.appendingPathComponent("linked"), link: link,
                                              count: count)
        let credited = try serverCoins(url: url, key: publicKey)
        guard credited == Decimal(10 * count) else {
            throw BenchError("the server holds \(credited) coins after \(count) linked purchases of 10")
        }

        Report.line(String(format: "engine alone (Market coins, same run): %.0f purchases/s; p50 %.3f ms, p99 %.3f ms",
                           alone.rate, alone.p50 * 1e3, alone.p99 * 1e3))
        Report.line(String(format: "through a server link (engine + HTTP + tally serve verify + durable commit): "
            + "%.0f purchases/s (%.2f× the engine alone); p50 %.3f ms, p99 %.3f ms", linked.rate,
            linked.rate / alone.rate, linked.p50 * 1e3, linked.p99 * 1e3))
        Report.line(String(format: "added latency per purchase: p50 +%.3f ms, p99 +%.3f ms (%d purchases each%@)",
                           (linked.p50 - alone.p50) * 1e3, (linked.p99 - alone.p99) * 1e3, count,
                           BenchTools.loadAverageNote))
    }

    /// What one timed run measured.
    struct Timed {
        var rate: Double
        var p50: Double
        var p99: Double
    }

    /// `count` purchases through a new store, each timed; checks the balance after.
    static func timedPurchases(backend: EngineBenchBackend, catalog: Catalog, configuration: AppConfiguration,
                               directory: URL, link: ServerLink?, count: Int) async throws -> Timed {
        let store = try await Store(backend: backend, catalog: catalog, configuration: configuration,
                                    directory: directory, locale: "en_US", serverLink: link)
        if link != nil, await store.stateSource != .server {
            throw BenchError("the linked store could not read the server: \(await store.diagnostics)")
        }
        var latencies: [Double] = []
        latencies.reserveCapacity(count)
        let start = now()
        for _ in 0..<count {
            let began = now()
            guard case .purchased = try await store.purchase(marketCoins) else {
                throw BenchError("a bench purchase did not end purchased")
            }
            latencies.append(seconds(since: began))
        }
        let elapsed = seconds(since: start)
        let balance = await store.balance("coins")
        let source = await store.stateSource
        let problems = await store.diagnostics
        await store.close()
        guard balance == Decimal(10 * count) else {
            throw BenchError("after \(count) purchases of 10 coins the balance is \(balance) (\(source)): \(problems)")
        }
        if link != nil, source != .server {
            throw BenchError("the linked purchases did not all reach the server: \(problems)")
        }
        latencies.sort()
        return Timed(rate: Double(count) / elapsed, p50: latencies[count / 2],
                     p99: latencies[min(count - 1, count * 99 / 100)])
    }

    /// A `tally-server.json` for the Market example trusting the bench backend's root, with one public key (its
    /// rate limits raised out of the way); returns the file and the key.
    static func linkedServerConfiguration(tally: URL, folder: URL, rootPEM: String) throws -> (URL, String) {
        let example = BenchTools.packageRoot.appendingPathComponent("Examples/Market")
        for name in ["Market.storekit", "tally.json"] {
            try FileManager.default.copyItem(at: example.appendingPathComponent(name),
                                             to: folder.appendingPathComponent(name))
        }
        try rootPEM.write(to: folder.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        let keyJSON = try BenchTools.output(of: tally, ["serve", "key", "--role", "public", "--name", "app"])
        guard let entry = try JSONSerialization.jsonObject(with: Data(keyJSON.utf8)) as? [String: Any],
              let key = entry["key"] as? String, let sha256 = entry["sha256"] as? String
        else { throw BenchError("tally serve key printed no key: \(keyJSON)") }
        let configuration: [String: Any] = [
            "listen": "127.0.0.1:0",
            "storekit": "Market.storekit",
            "appConfiguration": "tally.json",
            "verification": ["bundleId": ServerBenchSetup.bundleId, "environments": ["Sandbox"], "roots": ["root.pem"]],
            "keys": [["name": "app", "role": "public", "sha256": sha256]],
            "rateLimit": ["requestsPerSecond": 10_000_000, "burst": 1_000_000,
                          "publicKeyRequestsPerSecond": 10_000_000, "publicKeyBurst": 1_000_000,
                          "publicKeyPerAddressRequestsPerSecond": 10_000_000, "publicKeyPerAddressBurst": 1_000_000],
        ]
        let file = folder.appendingPathComponent("tally-server.json")
        try JSONSerialization.data(withJSONObject: configuration, options: [.sortedKeys]).write(to: file)
        return (file, key)
    }

    /// The bench customer's coins on the server.
    static func serverCoins(url: URL, key: String) throws -> Decimal {
        let body = try BenchHTTP.get(url.absoluteString + "/v1/customers/bench-user",
                                     headers: ["Authorization": "Bearer \(key)"])
        let customer = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["customer"] as? [String: Any]
        return ((customer?["balances"] as? [String: Any])?["coins"] as? NSNumber)?.decimalValue ?? 0
    }
}
