import Foundation
import TallyCore

/// `tally-bench server`: a real `tally serve` process under wrk load. (a) `GET /v1/customers/{id}` beside
/// nginx serving the same bytes as a static file; (b) signed transactions posted per second (verification and
/// a durable write each) beside SQLite's single-commit rate in the same folder; (c) spends per second for a
/// customer with a long ledger (`TALLY_BENCH_SPEND_HISTORY` entries, default 100,000) beside a fresh one; (d) coin
/// purchases posted to one customer with 120 renewals in the history beside (b)'s rate; (f) coin purchases posted with
/// a webhook endpoint that never answers beside the same without webhooks (``WebhookPostBenchmark``). `TALLY_BENCH_SECONDS` sets
/// each wrk run's length (default 10); `TALLY_BENCH_POSTS` the number of distinct transactions signed;
/// `TALLY_BENCH_SERVER_THREADS` the server's `threads` (default 4); `TALLY_BENCH_WRITE_THREADS` its `writeThreads`
/// (default 32, the server's default).
enum ServerBenchmark {
    static let reader = "bench-reader"

    static func run() -> Bool {
        Report.header("server")
        guard let tally = BenchTools.tally() else {
            Report.line("skipped: no tally executable beside tally-bench (swift build -c release --product tally)")
            return true
        }
        guard let wrkPath = BenchTools.find("wrk") else {
            Report.line("skipped: wrk is not installed (apt-get install wrk)")
            return true
        }
        guard let nginx = BenchTools.find("nginx") else {
            Report.line("skipped: nginx is not installed (apt-get install nginx-light)")
            return true
        }
        let environment = ProcessInfo.processInfo.environment
        let seconds = max(1, environment["TALLY_BENCH_SECONDS"].flatMap { Int($0) } ?? 10)
        let posts = max(100, environment["TALLY_BENCH_POSTS"].flatMap { Int($0) } ?? 6_000 * seconds)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let setup = try ServerBenchSetup(tally: tally, folder: folder)
            let prepared = try SpendBenchmark.prepare(setup: setup)
            try SubscriberPostBenchmark.prepare(setup: setup)
            Report.line(String(format: "stored %d coin purchases for the spend benchmark in %.1f s",
                               SpendBenchmark.historyEntries, prepared))
            let server = try TallyServeProcess(tally: tally, config: setup.config, folder: folder)
            let wrk = Wrk(executable: wrkPath, seconds: seconds)
            Report.line("tally serve on port \(server.port); wrk -t\(wrk.threads) -c\(wrk.connections) -d\(seconds)s"
                + BenchTools.loadAverageNote)
            let es256 = try ES256Baseline.measure()
            Report.line(es256.description)
            try measureReads(setup: setup, server: server, wrk: wrk, nginx: nginx)
            let fresh = try measurePosts(setup: setup, server: server, wrk: wrk, count: posts, es256: es256)
            try SubscriberPostBenchmark.measure(setup: setup, server: server, wrk: wrk, count: posts, fresh: fresh)
            try SpendBenchmark.measure(setup: setup, server: server, wrk: wrk)
            let perNotification = try NotificationBenchmark.measure(setup: setup, server: server, wrk: wrk,
                                                                    posted: posts, es256: es256)
            summarize(es256: es256, perPost: fresh.cpuPerPost, perNotification: perNotification)
            try WebhookPostBenchmark.measure(setup: setup, tally: tally, wrk: wrk)
            let status = server.stop()
            if status != 0 { Report.line("tally serve exited \(status) on SIGTERM (expected 0): \(server.errorText)") }
            return status == 0
        } catch {
            Report.line("could not run: \(error)")
            return false
        }
    }

    /// (a) GET of one customer's state, against nginx serving the same bytes.
    private static func measureReads(setup: ServerBenchSetup, server: TallyServeProcess, wrk: Wrk, nginx: URL) throws {
        let base = "http://127.0.0.1:\(server.port)"
        let auth = ["Authorization": setup.authorization]
        let purchases: [(String, ProductType)] = [
            ("market.coins.10", .consumable), ("market.coins.100", .consumable), ("market.coins.10", .consumable),
            ("market.premium", .nonConsumable), ("market.removeads", .nonConsumable),
        ]
        for (index, (productId, type)) in purchases.enumerated() {
            let jws = try setup.signedTransaction(id: index, productId: productId, type: type)
            _ = try BenchHTTP.post("\(base)/v1/customers/\(reader)/transactions",
                                   headers: auth.merging(["Content-Type": "application/json"]) { $1 },
                                   body: ServerBenchSetup.postBody(jws))
        }
        let path = "v1/customers/\(reader)"
        let body = try BenchHTTP.get("\(base)/\(path)", headers: auth)
        let cpuBefore = ProcessCPU.seconds(of: server.process.processIdentifier)
        let ours = try wrk.run("\(base)/\(path)", headers: ["Authorization: \(setup.authorization)"])
        let cpuAfter = ProcessCPU.seconds(of: server.process.processIdentifier)
        let peer = try NginxPeer(nginx: nginx, folder: setup.folder, path: path, body: body)
        let theirs = try wrk.run("http://127.0.0.1:\(peer.port)/\(path)")
        peer.stop()

        Report.line(String(format: "GET /%@ (%d-byte answer): tally serve %.0f req/s, p50 %.2f ms, p99 %.2f ms",
                           path, body.count, ours.requestsPerSecond, ours.p50 * 1e3, ours.p99 * 1e3))
        Report.line(String(format: "same bytes from nginx (static file): %.0f req/s, p50 %.2f ms, p99 %.2f ms",
                           theirs.requestsPerSecond, theirs.p50 * 1e3, theirs.p99 * 1e3))
        let ratio = ours.requestsPerSecond / theirs.requestsPerSecond
        Report.line(String(format: "tally serve vs nginx: %.0f%% (target ≥ 50%%) %@", ratio * 100,
                           ratio >= 0.5 ? "OK" : "MISSED"))
        if let cpuBefore, let cpuAfter, ours.requests > 0 {
            // The HTTP floor every post pays too: a keyed request parsed, routed, answered from the cache and sent.
            Report.line(String(format: "tally serve CPU per cached GET: %.3f ms (the HTTP floor of a request)",
                               (cpuAfter - cpuBefore) * 1e3 / Double(ours.requests)))
        }
        Report.underLimit("tally serve GET p99", value: ours.p99 * 1e3, unit: "ms", limit: 10)
        reportErrors("tally serve GET", ours)
        reportErrors("nginx GET", theirs)
        try measureOfferings(base: base, setup: setup, wrk: wrk)
    }

    /// `GET /v1/offerings` for one placement and customer (the Market's experiment applies), answered 200 and, with
    /// its ETag as `If-None-Match`, 304, each beside the cached customer GET (target ≥ 90%): the three alternate in
    /// rounds of half `TALLY_BENCH_SECONDS` (four each, every order once), so the machine's load falls on all alike.
    private static func measureOfferings(base: String, setup: ServerBenchSetup, wrk: Wrk) throws {
        let url = "\(base)/v1/offerings?placement=onboarding&appUserId=\(reader)"
        let auth = ["Authorization": setup.authorization]
        let body = try BenchHTTP.get(url, headers: auth)
        guard let tag = try BenchHTTP.header("ETag", of: url, headers: auth) else {
            throw BenchError("GET /v1/offerings answered no ETag")
        }
        let key = "Authorization: \(setup.authorization)"
        let sides: [(name: String, url: String, headers: [String])] = [
            ("the cached customer GET", "\(base)/v1/customers/\(reader)", [key]),
            ("GET /v1/offerings (200, \(body.count)-byte body)", url, [key]),
            ("GET /v1/offerings (304, If-None-Match)", url, [key, "If-None-Match: \(tag)"]),
        ]
        var round = wrk
        round.seconds = max(1, wrk.seconds / 2)
        var results = [[WrkResult]](repeating: [], count: sides.count)
        for order in [[0, 1, 2], [2, 0, 1], [1, 2, 0], [0, 2, 1]] {
            for index in order { results[index].append(try round.run(sides[index].url, headers: sides[index].headers)) }
        }
        let combined = results.map(WrkRounds.init)
        for (side, result) in zip(sides, combined) {
            Report.line(String(format: "%@: %.0f req/s, p50 %.2f ms, p99 %.2f ms (%d rounds of %d s)", side.name,
                               result.rate, result.p50 * 1e3, result.p99 * 1e3, results[0].count, round.seconds))
            if result.non2xx > 0 || result.socketErrors > 0 {
                Report.line("WARNING \(side.name): \(result.non2xx) non-2xx answers, \(result.socketErrors) socket errors")
            }
        }
        for index in 1..<sides.count {
            let ratio = combined[index].rate / combined[0].rate
            Report.line(String(format: "%@ vs the cached customer GET: %.0f%% (target ≥ 90%%) %@", sides[index].name,
                               ratio * 100, ratio >= 0.9 ? "OK" : "MISSED"))
        }
    }

    /// (b) Distinct signed transactions posted, one customer each, against SQLite's single-commit rate.
    /// Returns the rate and the server's CPU seconds per post, for part (d).
    private static func measurePosts(setup: ServerBenchSetup, server: TallyServeProcess, wrk: Wrk, count: Int,
                                     es256: ES256Baseline) throws -> (rate: Double, cpuPerPost: Double?)
    {
        var lines: [String] = []
        lines.reserveCapacity(count)
        let signing = try Stopwatch.seconds {
            for index in 0..<count {
                let jws = try setup.signedTransaction(id: 1_000 + index, productId: "market.coins.10", type: .consumable)
                let body = String(decoding: try ServerBenchSetup.postBody(jws), as: UTF8.self)
                lines.append("/v1/customers/bench-post-\(index)/transactions\t\(body)")
            }
        }
        Report.line(String(format: "signed %d transactions shaped as a device's (%d-byte JWS) in %.1f s", count,
                           lines.first.map { $0.utf8.count } ?? 0, signing))
        let files = try PostScript.write(lines: lines, folder: setup.folder)
        // The disk is shared: SQLite's rate is measured just before and just after the posts, and averaged.
        let sqliteSeconds = min(2, Double(wrk.seconds))
        let before = try SQLiteCommitRate.measure(folder: setup.folder, name: "before", seconds: sqliteSeconds)
        let perf = PerfRecord(pid: server.process.processIdentifier, name: "posts")
        let cpuBefore = ProcessCPU.seconds(of: server.process.processIdentifier)
        let ioBefore = ProcessIO.now(of: server.process.processIdentifier)
        let posted = try wrk.run(
            "http://127.0.0.1:\(server.port)/",
            headers: ["Authorization: \(setup.authorization)", "Content-Type: application/json"],
            script: files.script, scriptArguments: [files.requests.path, String(wrk.threads)])
        let cpuAfter = ProcessCPU.seconds(of: server.process.processIdentifier)
        perf.stop()
        let ioAfter = ProcessIO.now(of: server.process.processIdentifier)
        let after = try SQLiteCommitRate.measure(folder: setup.folder, name: "after", seconds: sqliteSeconds)
        let sqlite = (before + after) / 2

        Report.line(String(format: "POST …/transactions (verify + durable write): %.0f posts/s, p50 %.2f ms, p99 %.2f ms",
                           posted.requestsPerSecond, posted.p50 * 1e3, posted.p99 * 1e3))
        Report.line(String(format: "SQLite alone, one INSERT per commit (WAL, synchronous=FULL): %.0f commits/s "
                           + "(%.0f before, %.0f after)", sqlite, before, after))
        let ratio = posted.requestsPerSecond / sqlite
        Report.line(String(format: "posts vs SQLite commits: %.0f%% (target ≥ 200%%) %@", 100 * ratio,
                           ratio >= 2 ? "OK" : "MISSED"))
        var cpuPerPost: Double?
        if let cpuBefore, let cpuAfter, posted.requests > 0 {
            let perPost = (cpuAfter - cpuBefore) * 1e3 / Double(posted.requests)
            let ratio = perPost / (es256.cpuSecondsPerVerify * 1e3)
            Report.line(String(format: "tally serve CPU per post: %.3f ms (%.1f s over %d requests) = %.2f× one ES256 "
                               + "verification (%.3f ms; target ≤ 2.5×) %@", perPost, cpuAfter - cpuBefore,
                               posted.requests, ratio, es256.cpuSecondsPerVerify * 1e3, ratio <= 2.5 ? "OK" : "MISSED"))
            cpuPerPost = perPost
        }
        if let io = ProcessIO.perRequest(from: ioBefore, to: ioAfter, requests: posted.requests, noun: "post") {
            Report.line("tally serve I/O: " + io)
        }
        if posted.requests > count {
            Report.line("note: \(posted.requests) requests for \(count) transactions: repeats (no write) are "
                + "included; raise TALLY_BENCH_POSTS")
        }
        reportErrors("tally serve POST", posted)
        try checkCredited(setup: setup, server: server)
        return (posted.requestsPerSecond, cpuPerPost)
    }

    /// The verified writes' costs beside their floor, one ES256 verification, all measured in this run.
    private static func summarize(es256: ES256Baseline, perPost: Double?, perNotification: Double?) {
        let verify = es256.cpuSecondsPerVerify * 1e3
        var line = String(format: "in this run: one ES256 verification %.3f ms", verify)
        if let speed = es256.opensslRate { line += String(format: " (openssl speed %.3f ms)", 1e3 / speed) }
        if let perPost {
            line += String(format: "; a post %.3f ms = %.2f× (target ≤ 2.5×)", perPost, perPost / verify)
        }
        if let perNotification {
            line += String(format: "; a notification %.3f ms = %.2f× its two (target ≤ 2×)", perNotification,
                           perNotification / (2 * verify))
        }
        Report.line(line + BenchTools.loadAverageNote)
    }

    /// Proves the posts were real: customers posted to early own the 10 coins their transaction credits.
    /// (Not bench-post-0: wrk calls the script's `request()` once on its first thread to check the request,
    /// so that line is never sent.)
    private static func checkCredited(setup: ServerBenchSetup, server: TallyServeProcess) throws {
        for customer in ["bench-post-1", "bench-post-2"] {
            let url = "http://127.0.0.1:\(server.port)/v1/customers/\(customer)"
            let data = try BenchHTTP.get(url, headers: ["Authorization": setup.authorization])
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let customerObject = object?["customer"] as? [String: Any]
            let coins = (customerObject?["balances"] as? [String: Any])?["coins"] as? NSNumber
            guard coins?.intValue == 10 else {
                throw BenchError("\(customer) should own 10 coins after its post: \(String(decoding: data, as: UTF8.self))")
            }
        }
    }

    private static func reportErrors(_ name: String, _ result: WrkResult) {
        if result.non2xx > 0 || result.socketErrors > 0 {
            Report.line("WARNING \(name): \(result.non2xx) non-2xx answers, \(result.socketErrors) socket errors "
                + "of \(result.requests) requests")
        }
    }
}
