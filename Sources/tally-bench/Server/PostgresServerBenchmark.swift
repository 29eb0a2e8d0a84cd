import Foundation
import TallyLocking
import TallyCore
import TallyPostgres
import TallyServer
import TallyStorage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
import TallyStorage
#endif

/// `tally-bench server --store postgres`: two `tally serve` processes on one PostgreSQL database (a throw-away
/// cluster from `scripts/with-postgres.sh --start`, fsync on), under two wrk processes at once (one per server):
/// `GET /v1/customers/{id}` with the state cache off and on, spends/s over 64 funded customers, distinct signed
/// transactions posted per second; beside `pgbench -S` (select-only) and `pgbench` (TPC-B-like) against the same
/// cluster in the same run. Targets: uncached reads ≥ 50% of `pgbench -S` tps, spends ≥ 50% of TPC-B tps.
enum PostgresServerBenchmark {
    static let reader = "bench-reader"
    static let spenders = 64

    static func run() -> Bool {
        Report.header("server --store postgres")
        guard let (tally, wrkPath) = BenchTools.tallyAndWrk() else { return true }
        let environment = ProcessInfo.processInfo.environment
        let seconds = max(1, environment["TALLY_BENCH_SECONDS"].flatMap { Int($0) } ?? 10)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-pg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var cluster: Cluster?
        defer { cluster?.stop() }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let started = try Cluster.start()
            cluster = started
            let database = try started.createDatabase("tally_bench")
            let pgbenchDatabase = try started.createDatabase("pgbench_peer")
            // As many write threads as the pool has connections (a write waits for a connection; more only queue).
            let setup = try ServerBenchSetup(tally: tally, folder: folder, writeThreads: 8)
            let funding = try fund(setup: setup, url: database)
            Report.line(String(format: "funded %d customers through the store in %.1f s", spenders, funding))
            let wrk = Wrk(executable: wrkPath, threads: 1, connections: 32, seconds: seconds)
            Report.line("PostgreSQL on a Unix socket (fsync on); two tally serve (threads \(setup.threads), writeThreads \(setup.writeThreads), poolSize 8); per server "
                + "wrk -t1 -c32 -d\(seconds)s" + BenchTools.loadAverageNote)

            let (selectOnly, tpcb) = try pgbench(started, database: pgbenchDatabase, seconds: seconds)
            Report.line(String(format: "pgbench -S (select-only, -c16 -j2 -M prepared): %.0f tps", selectOnly))
            Report.line(String(format: "pgbench TPC-B-like (-c16 -j2 -M prepared): %.0f tps", tpcb))

            let uncached = try Pair(tally: tally, setup: setup, folder: folder, name: "uncached", url: database, cacheSeconds: 0)
            try seedReader(setup: setup, port: uncached.ports[0])
            let reads = try both(wrk, ports: uncached.ports) { port in
                (url: "http://127.0.0.1:\(port)/v1/customers/\(reader)", script: nil)
            } headers: { ["Authorization: \(setup.authorization)"] }
            report("GET /v1/customers/{id}, cache off", reads)
            ratio("uncached reads vs pgbench -S", reads.rate, selectOnly)

            let spendCount = max(2_000, environment["TALLY_BENCH_SPENDS"].flatMap { Int($0) } ?? 3_000 * seconds)
            let spends = try both(wrk, ports: uncached.ports, folder: folder, name: "spend") { server in
                (0..<spendCount).map { index in
                    let customer = "bench-spender-\(index % spenders)"
                    return "/v1/customers/\(customer)/currencies/coins/spend\t{\"amount\":1,\"id\":\"s\(server)-\(index)\"}"
                }
            } headers: { ["Authorization: \(setup.authorization)", "Content-Type: application/json"] }
            report("POST …/spend over \(spenders) customers", spends)
            ratio("spends vs pgbench TPC-B-like", spends.rate, tpcb)

            let postCount = max(1_000, environment["TALLY_BENCH_POSTS"].flatMap { Int($0) } ?? 1_500 * seconds)
            var signed: [[String]] = [[], []]
            for index in 0..<(2 * postCount) {
                let jws = try setup.signedTransaction(id: 5_000_000 + index, productId: "market.coins.10", type: .consumable)
                let body = String(decoding: try ServerBenchSetup.postBody(jws), as: UTF8.self)
                signed[index % 2].append("/v1/customers/bench-post-\(index)/transactions\t\(body)")
            }
            let posts = try both(wrk, ports: uncached.ports, folder: folder, name: "post") { server in signed[server] }
                headers: { ["Authorization: \(setup.authorization)", "Content-Type: application/json"] }
            report("POST …/transactions (verify + durable write)", posts)
            ratio("posts vs pgbench TPC-B-like", posts.rate, tpcb, target: nil)
            try checkSpent(setup: setup, port: uncached.ports[1])
            uncached.stop()

            let cached = try Pair(tally: tally, setup: setup, folder: folder, name: "cached", url: database, cacheSeconds: 300)
            let cachedReads = try both(wrk, ports: cached.ports) { port in
                (url: "http://127.0.0.1:\(port)/v1/customers/\(reader)", script: nil)
            } headers: { ["Authorization: \(setup.authorization)"] }
            report("GET /v1/customers/{id}, cache on (cacheSeconds 300)", cachedReads)
            ratio("cached reads vs pgbench -S", cachedReads.rate, selectOnly, target: nil)
            cached.stop()
            // A read that makes one query costs at least one cached answer (HTTP, no query) plus one pgbench -S
            // transaction (the query and its client): the ceiling such reads reach here, from this run's own rates.
            let ceiling = 1 / (1 / cachedReads.rate + 1 / selectOnly)
            Report.line(String(format: "ceiling of a one-query read, 1/(1/cached + 1/pgbench -S): %.0f req/s (%.0f%% of "
                               + "pgbench -S); uncached reads reached %.0f%% of it", ceiling, 100 * ceiling / selectOnly,
                               100 * reads.rate / ceiling))
            return true
        } catch {
            Report.line("could not run: \(error)")
            return false
        }
    }

    /// The summed rate of two wrk runs at once, and their worst p99.
    struct Both {
        var rate: Double
        var p99: Double
        var non2xx: Int
        var socketErrors: Int
        var requests: Int
    }

    static func report(_ name: String, _ result: Both) {
        Report.line(String(format: "%@: %.0f req/s over both servers, worst p99 %.2f ms", name, result.rate, result.p99 * 1e3))
        if result.non2xx > 0 || result.socketErrors > 0 {
            Report.line("WARNING \(name): \(result.non2xx) non-2xx answers, \(result.socketErrors) socket errors of "
                + "\(result.requests) requests")
        }
    }

    /// `ours` as a share of `peer`, with the issue's target when it sets one (uncached reads and spends: 50%).
    static func ratio(_ name: String, _ ours: Double, _ peer: Double, target: Double? = 0.5) {
        let value = ours / peer
        guard let target else { return Report.line(String(format: "%@: %.0f%% (no target)", name, value * 100)) }
        Report.line(String(format: "%@: %.0f%% (target ≥ %.0f%%) %@", name, value * 100, target * 100,
                           value >= target ? "OK" : "MISSED"))
    }

    /// wrk on both servers at once: a plain GET per server.
    static func both(_ wrk: Wrk, ports: [UInt16], target: (UInt16) -> (url: String, script: URL?),
                             headers: () -> [String]) throws -> Both {
        let urls = ports.map { target($0).url }
        let head = headers()
        return try concurrently(2) { index in try wrk.run(urls[index], headers: head) }
    }

    /// wrk on both servers at once, each posting its own lines (`path<TAB>body`).
    static func both(_ wrk: Wrk, ports: [UInt16], folder: URL, name: String, lines: (Int) -> [String],
                             headers: () -> [String]) throws -> Both {
        var files: [(script: URL, requests: URL)] = []
        for server in 0..<2 {
            let place = folder.appendingPathComponent("\(name)-\(server)")
            try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
            files.append(try PostScript.write(lines: lines(server), folder: place))
        }
        let head = headers(), written = files
        return try concurrently(2) { index in
            try wrk.run("http://127.0.0.1:\(ports[index])/", headers: head, script: written[index].script,
                        scriptArguments: [written[index].requests.path, String(wrk.threads)])
        }
    }

    static func concurrently(_ count: Int, _ body: @Sendable (Int) throws -> WrkResult) throws -> Both {
        let results = Locked<[Result<WrkResult, any Error>]>([])
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let result = Result { try body(index) }
            results.withLock { $0.append(result) }
        }
        let runs = try results.withLock { $0 }.map { try $0.get() }
        var both = Both(rate: 0, p99: 0, non2xx: 0, socketErrors: 0, requests: 0)
        for run in runs {
            both.rate += run.requestsPerSecond
            both.p99 = max(both.p99, run.p99)
            both.non2xx += run.non2xx
            both.socketErrors += run.socketErrors
            both.requests += run.requests
        }
        return both
    }

    /// Gives each spender 10,000,000 coins (one purchase of a million 10-coin packs) through the store itself.
    static func fund(setup: ServerBenchSetup, url: String) throws -> Double {
        let catalog = try Catalog(storeKitData: try Data(contentsOf: setup.folder.appendingPathComponent("Market.storekit")),
                                  fileName: "Market.storekit")
        let configuration = try AppConfiguration(
            jsonData: try Data(contentsOf: setup.folder.appendingPathComponent("tally.json")), fileName: "tally.json")
        let store = try PostgresCustomerStore(url: url, poolSize: 2,
                                              credits: CurrencyCredits(catalog: catalog, configuration: configuration))
        return try Stopwatch.seconds {
            for index in 0..<spenders {
                let transaction = StoreTransaction(
                    transactionId: "bench-fund-\(index)", bundleId: ServerBenchSetup.bundleId, productId: "market.coins.10",
                    purchaseDate: setup.now, quantity: 1_000_000, type: .consumable, signedDate: setup.now,
                    environment: .sandbox)
                _ = try store.record([StoredTransaction(transaction: transaction, source: .signedTransaction)],
                                     for: "bench-spender-\(index)", policy: .transfer, at: setup.now)
            }
        }
    }

    /// The reader's state: coins and two non-consumables (as the SQLite benchmark's).
    static func seedReader(setup: ServerBenchSetup, port: UInt16) throws {
        let purchases: [(String, ProductType)] = [
            ("market.coins.10", .consumable), ("market.coins.100", .consumable), ("market.coins.10", .consumable),
            ("market.premium", .nonConsumable), ("market.removeads", .nonConsumable),
        ]
        for (index, (productId, type)) in purchases.enumerated() {
            let jws = try setup.signedTransaction(id: index, productId: productId, type: type)
            _ = try BenchHTTP.post("http://127.0.0.1:\(port)/v1/customers/\(reader)/transactions",
                                   headers: ["Authorization": setup.authorization, "Content-Type": "application/json"],
                                   body: ServerBenchSetup.postBody(jws))
        }
    }

    /// Proves the spends and posts were real: a spender's balance went down, a posted customer owns 10 coins.
    private static func checkSpent(setup: ServerBenchSetup, port: UInt16) throws {
        for (customer, check) in [("bench-spender-1", { (coins: Int) in coins < 10_000_000 }),
                                  ("bench-post-3", { (coins: Int) in coins == 10 })] {
            let data = try BenchHTTP.get("http://127.0.0.1:\(port)/v1/customers/\(customer)",
                                         headers: ["Authorization": setup.authorization])
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let coins = ((object?["customer"] as? [String: Any])?["balances"] as? [String: Any])?["coins"] as? NSNumber
            guard let coins, check(coins.intValue) else {
                throw BenchError("\(customer) has an unexpected balance: \(String(decoding: data, as: UTF8.self))")
            }
        }
    }

    /// `pgbench -S` and TPC-B-like transactions per second against the cluster.
    private static func pgbench(_ cluster: Cluster, database: String, seconds: Int) throws -> (Double, Double) {
        let pgbench = URL(fileURLWithPath: cluster.binaries + "/pgbench")
        _ = try BenchTools.output(of: pgbench, ["-i", "-q", "-s", "10", database])
        let common = ["-c", "16", "-j", "2", "-M", "prepared", "-T", String(seconds), database]
        let selectOnly = try tps(BenchTools.output(of: pgbench, ["-S"] + common))
        let tpcb = try tps(BenchTools.output(of: pgbench, common))
        return (selectOnly, tpcb)
    }

    static func tps(_ output: String) throws -> Double {
        for line in output.split(separator: "\n") where line.hasPrefix("tps = ") {
            if let value = line.dropFirst(6).split(separator: " ").first.flatMap({ Double($0) }) { return value }
        }
        throw BenchError("pgbench printed no tps line: \(output)")
    }

    /// Two `tally serve` on one database, each with its own folder and configuration.
    final class Pair {
        let servers: [TallyServeProcess]
        var ports: [UInt16] { servers.map(\.port) }

        /// With `replicas`, both read from them (`store.replicas`).
        init(tally: URL, setup: ServerBenchSetup, folder: URL, name: String, url: String, cacheSeconds: Int,
             replicas: [String] = []) throws {
            var document = try JSONSerialization.jsonObject(with: Data(contentsOf: setup.config)) as? [String: Any] ?? [:]
            var store: [String: Any] = ["kind": "postgres", "url": url, "poolSize": 8, "cacheSeconds": cacheSeconds]
            if !replicas.isEmpty { store["replicas"] = replicas }
            document["store"] = store
            var started: [TallyServeProcess] = []
            for index in 0..<2 {
                let place = folder.appendingPathComponent("\(name)-server-\(index)")
                try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
                for file in ["Market.storekit", "tally.json", "root.pem", "offerings.json"]
                where FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path) {
                    try FileManager.default.copyItem(at: folder.appendingPathComponent(file),
                                                     to: place.appendingPathComponent(file))
                }
                let config = place.appendingPathComponent("tally-server.json")
                try JSONSerialization.data(withJSONObject: document).write(to: config)
                started.append(try TallyServeProcess(tally: tally, config: config, folder: place))
            }
            servers = started
        }

        func stop() {
            for server in servers { server.stop() }
        }
    }

    /// A throw-away cluster (`scripts/with-postgres.sh --start`, with `--replica` a streaming replica too), stopped
    /// by ``stop()``.
    struct Cluster {
        var url: String
        var control: String
        var binaries: String
        /// The replica's `postgres` database and its pg_ctl script, when started with one.
        var replicaURL: String?
        var replicaControl: String?

        static func start(replica: Bool = false) throws -> Cluster {
            let script = BenchTools.packageRoot.appendingPathComponent("scripts/with-postgres.sh").path
            let output = try spawn("/bin/bash", [script, "--start"] + (replica ? ["--replica"] : []))
            var values: [String: String] = [:]
            for line in output.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
            }
            guard let url = values["TALLY_TEST_POSTGRES_URL"], let control = values["TALLY_TEST_POSTGRES_CTL"],
                  let binaries = values["TALLY_TEST_POSTGRES_BIN"]
            else { throw BenchError("with-postgres.sh --start printed no cluster: \(output)") }
            return Cluster(url: url, control: control, binaries: binaries,
                           replicaURL: values["TALLY_TEST_POSTGRES_REPLICA_URL"],
                           replicaControl: values["TALLY_TEST_POSTGRES_REPLICA_CTL"])
        }

        /// `database` (a URL ``createDatabase(_:)`` gave) on the replica.
        func onReplica(_ database: String) throws -> String {
            guard let replicaURL, var components = URLComponents(string: replicaURL),
                  let path = URLComponents(string: database)?.path else { throw BenchError("no replica") }
            components.path = path
            return components.string ?? replicaURL
        }

        /// Creates database `name`; its URL.
        func createDatabase(_ name: String) throws -> String {
            _ = try BenchTools.output(of: URL(fileURLWithPath: binaries + "/psql"), [url, "-qc", "CREATE DATABASE \(name)"])
            guard var components = URLComponents(string: url) else { throw BenchError("not a URL: \(url)") }
            components.path = "/" + name
            return components.string ?? url
        }

        func stop() {
            if let replicaControl { _ = try? Self.spawn(replicaControl, ["stop", "-m", "fast"]) }
            _ = try? Self.spawn(control, ["stop", "-m", "fast"])
            try? FileManager.default.removeItem(atPath: (control as NSString).deletingLastPathComponent)
        }

        /// posix_spawn + waitpid, output through a file: Foundation's `Process` missed the exit of a script that
        /// leaves the postmaster running.
        private static func spawn(_ executable: String, _ arguments: [String]) throws -> String {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-\(UUID().uuidString).out").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var pid: pid_t = 0
            guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else {
                throw BenchError("cannot run \(executable)")
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let output = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            guard status == 0 else { throw BenchError("\(executable) failed (wait status \(status)): \(output)") }
            return output
        }
    }
}
