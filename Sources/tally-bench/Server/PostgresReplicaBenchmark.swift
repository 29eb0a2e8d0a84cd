import Foundation

/// `tally-bench server --store postgres --replica`: a PostgreSQL primary and one streaming replica
/// (`scripts/with-postgres.sh --start --replica`), two `tally serve` reading from the replica (`store.replicas`,
/// cache off), under two wrk processes at once: `GET /v1/customers/{id}` without and with a `Tally-Read-After` the
/// replica has replayed; the reads each node served (from `/metrics`) and the replica's read rate, beside
/// `pgbench -S` against the replica and against the primary in the same run.
enum PostgresReplicaBenchmark {
    static func run() -> Bool {
        Report.header("server --store postgres --replica")
        guard let (tally, wrkPath) = BenchTools.tallyAndWrk() else { return true }
        let environment = ProcessInfo.processInfo.environment
        let seconds = max(1, environment["TALLY_BENCH_SECONDS"].flatMap { Int($0) } ?? 10)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-pgr-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var cluster: PostgresServerBenchmark.Cluster?
        defer { cluster?.stop() }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let started = try PostgresServerBenchmark.Cluster.start(replica: true)
            cluster = started
            let database = try started.createDatabase("tally_bench")
            let pgbenchDatabase = try started.createDatabase("pgbench_peer")
            let setup = try ServerBenchSetup(tally: tally, folder: folder, writeThreads: 8)
            let wrk = Wrk(executable: wrkPath, threads: 1, connections: 32, seconds: seconds)
            Report.line("PostgreSQL primary + 1 streaming replica on Unix sockets (fsync on), one machine; two tally serve "
                + "(threads \(setup.threads), poolSize 8 per node, store.replicas); per server wrk -t1 -c32 -d\(seconds)s"
                + BenchTools.loadAverageNote)

            let pgbench = URL(fileURLWithPath: started.binaries + "/pgbench")
            _ = try BenchTools.output(of: pgbench, ["-i", "-q", "-s", "10", pgbenchDatabase])
            try waitForReplay(started)
            let common = ["-S", "-c", "16", "-j", "2", "-M", "prepared", "-T", String(seconds)]
            let onReplica = try PostgresServerBenchmark.tps(BenchTools.output(
                of: pgbench, common + [try started.onReplica(pgbenchDatabase)]))
            let onPrimary = try PostgresServerBenchmark.tps(BenchTools.output(of: pgbench, common + [pgbenchDatabase]))
            Report.line(String(format: "pgbench -S on the replica (-c16 -j2 -M prepared): %.0f tps", onReplica))
            Report.line(String(format: "pgbench -S on the primary (-c16 -j2 -M prepared): %.0f tps", onPrimary))

            let pair = try PostgresServerBenchmark.Pair(tally: tally, setup: setup, folder: folder, name: "replica",
                                                        url: database, cacheSeconds: 0,
                                                        replicas: [try started.onReplica(database)])
            defer { pair.stop() }
            try PostgresServerBenchmark.seedReader(setup: setup, port: pair.ports[0])
            try waitForReplay(started)
            for port in pair.ports { try waitForUp(port) }
            let url = { (port: UInt16) in (url: "http://127.0.0.1:\(port)/v1/customers/\(PostgresServerBenchmark.reader)",
                                          script: URL?.none) }
            let token = try primaryToken(started)
            for (name, headers) in [("", ["Authorization: \(setup.authorization)"]),
                                    (" with a replayed Tally-Read-After",
                                     ["Authorization: \(setup.authorization)", "Tally-Read-After: \(token)"])] {
                let before = try counts(pair.ports, setup)
                let reads = try PostgresServerBenchmark.both(wrk, ports: pair.ports, target: url) { headers }
                let after = try counts(pair.ports, setup)
                let replicaReads = after.replica - before.replica, primaryReads = after.primary - before.primary
                let fallbacks = after.fallbacks - before.fallbacks
                PostgresServerBenchmark.report("GET /v1/customers/{id}\(name), cache off", reads)
                let share = Double(replicaReads) / Double(max(1, replicaReads + primaryReads))
                Report.line(String(format: "  store reads (statements; reads arriving together share one): %d by the "
                                   + "replica (%.1f%%), %d by the primary, %d requests sent to the primary for want of "
                                   + "a replica; the replica's statements: %.0f/s",
                                   replicaReads, share * 100, primaryReads, fallbacks,
                                   Double(replicaReads) / Double(seconds)))
                Report.line(String(format: "  reads%@ vs pgbench -S on the replica: %.0f%% (no target)", name,
                                   100 * reads.rate / onReplica))
            }
            // Writes with replicas answer with the primary's position (one more round trip each): spends through
            // these servers, then through two without replicas on the same database, in the same run.
            _ = try PostgresServerBenchmark.fund(setup: setup, url: database)
            let spendCount = max(2_000, environment["TALLY_BENCH_SPENDS"].flatMap { Int($0) } ?? 3_000 * seconds)
            let spendLines = { (prefix: String) in { (server: Int) in
                (0..<spendCount).map { index in
                    "/v1/customers/bench-spender-\(index % PostgresServerBenchmark.spenders)/currencies/coins/spend"
                        + "\t{\"amount\":1,\"id\":\"\(prefix)\(server)-\(index)\"}"
                }
            } }
            let spendHeaders = ["Authorization: \(setup.authorization)", "Content-Type: application/json"]
            let withReplica = try PostgresServerBenchmark.both(wrk, ports: pair.ports, folder: folder, name: "spend-r",
                                                               lines: spendLines("r")) { spendHeaders }
            PostgresServerBenchmark.report("POST …/spend, servers with store.replicas (answers carry Tally-Read-After)",
                                           withReplica)
            pair.stop()
            let plain = try PostgresServerBenchmark.Pair(tally: tally, setup: setup, folder: folder, name: "plain",
                                                         url: database, cacheSeconds: 0)
            defer { plain.stop() }
            let without = try PostgresServerBenchmark.both(wrk, ports: plain.ports, folder: folder, name: "spend-p",
                                                           lines: spendLines("p")) { spendHeaders }
            PostgresServerBenchmark.report("POST …/spend, servers without replicas", without)
            Report.line(String(format: "  spends with replicas vs without: %.0f%% (no target)",
                               100 * withReplica.rate / without.rate))
            return true
        } catch {
            Report.line("could not run: \(error)")
            return false
        }
    }

    /// The `tally_store_reads_total` counters and fallbacks summed over both servers' `/metrics`.
    private static func counts(_ ports: [UInt16], _ setup: ServerBenchSetup) throws
        -> (replica: Int, primary: Int, fallbacks: Int)
    {
        var total = (replica: 0, primary: 0, fallbacks: 0)
        for port in ports {
            let text = String(decoding: try BenchHTTP.get("http://127.0.0.1:\(port)/metrics",
                                                          headers: ["Authorization": setup.authorization]), as: UTF8.self)
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard parts.count == 2, let value = Double(parts[1]) else { continue }
                switch parts[0] {
                case #"tally_store_reads_total{node="replica0"}"#: total.replica += Int(value)
                case #"tally_store_reads_total{node="primary"}"#: total.primary += Int(value)
                case "tally_store_replica_fallbacks_total": total.fallbacks += Int(value)
                default: break
                }
            }
        }
        return total
    }

    /// The primary's log position now, as a `Tally-Read-After` token.
    private static func primaryToken(_ cluster: PostgresServerBenchmark.Cluster) throws -> String {
        try BenchTools.output(of: URL(fileURLWithPath: cluster.binaries + "/psql"), [cluster.url, "-Atqc",
            "SELECT lpad(upper(to_hex((pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint)), 16, '0')"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits (at most 30 s) until the replica has replayed what the primary has written now.
    private static func waitForReplay(_ cluster: PostgresServerBenchmark.Cluster) throws {
        let psql = URL(fileURLWithPath: cluster.binaries + "/psql")
        let target = try BenchTools.output(of: psql, [cluster.url, "-Atqc", "SELECT pg_current_wal_insert_lsn()"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let done = try BenchTools.output(of: psql, [cluster.replicaURL ?? "", "-Atqc",
                                                        "SELECT pg_last_wal_replay_lsn() >= '\(target)'::pg_lsn"])
            if done.trimmingCharacters(in: .whitespacesAndNewlines) == "t" { return }
            usleep(20_000)
        }
        throw BenchError("the replica did not replay \(target) within 30 s")
    }

    /// Waits (at most 30 s) until the server's `/readyz` shows its replica up.
    private static func waitForUp(_ port: UInt16) throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let body = String(decoding: (try? BenchHTTP.get("http://127.0.0.1:\(port)/readyz")) ?? Data(), as: UTF8.self)
            if body.contains(#""status":"up""#) { return }
            usleep(50_000)
        }
        throw BenchError("the server on port \(port) never found its replica up")
    }
}
