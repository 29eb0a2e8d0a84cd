import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `tally-bench server`, part (f), also `tally-bench webhooks` alone: coin purchases posted (two webhook events
/// each) to a `tally serve` whose one webhook endpoint never answers (a socket that listens and never accepts),
/// beside the same posts to a `tally serve` without webhooks, in alternating rounds of half `TALLY_BENCH_SECONDS`
/// (AB, BA). Target: the p99 with webhooks within 10 % of the p99 without (docs/webhooks.md: no send inside a request).
enum WebhookPostBenchmark {
    static func run() -> Bool {
        Report.header("webhooks")
        guard let tally = BenchTools.tally(), let wrkPath = BenchTools.find("wrk") else {
            Report.line("skipped: needs tally beside tally-bench and wrk")
            return true
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let setup = try ServerBenchSetup(tally: tally, folder: folder)
            let seconds = max(1, (ProcessInfo.processInfo.environment["TALLY_BENCH_SECONDS"].flatMap { Int($0) } ?? 10))
            try measure(setup: setup, tally: tally, wrk: Wrk(executable: wrkPath, seconds: seconds))
            return true
        } catch {
            Report.line("could not run: \(error)")
            return false
        }
    }

    /// The comparison, over `setup`'s configuration (a copy with `webhooks` for the second server).
    static func measure(setup: ServerBenchSetup, tally: URL, wrk: Wrk) throws {
        let silent = try SilentSocket()
        defer { silent.close() }
        var document = try JSONSerialization.jsonObject(with: Data(contentsOf: setup.config)) as? [String: Any] ?? [:]
        // `TALLY_BENCH_WEBHOOK_EVENTS` (comma-separated, default `*`): `TEST` runs the sender with no event written.
        let events = (ProcessInfo.processInfo.environment["TALLY_BENCH_WEBHOOK_EVENTS"] ?? "*").split(separator: ",").map(String.init)
        document["webhooks"] = [["url": "http://127.0.0.1:\(silent.port)/never", "secret": "bench-secret",
                                 "events": events, "timeoutSeconds": 10]]
        let hooked = setup.folder.appendingPathComponent("tally-server-webhooks.json")
        try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]).write(to: hooked)
        let sides: [(name: String, config: URL)] = [("without webhooks", setup.config),
                                                    ("webhooks to a receiver that never answers", hooked)]
        var servers: [TallyServeProcess] = []
        for (index, side) in sides.enumerated() {
            let data = setup.folder.appendingPathComponent("side-\(index)")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            servers.append(try TallyServeProcess(tally: tally, config: side.config, folder: data))
        }
        defer { for server in servers { server.stop() } }
        var round = wrk
        round.seconds = max(1, wrk.seconds / 2)
        let perRound = 3_000 * round.seconds
        var results = [[WrkResult]](repeating: [], count: sides.count)
        var next = 0
        for (pass, order) in [[0, 1], [1, 0]].enumerated() {
            for index in order {
                var lines: [String] = []
                for _ in 0..<perRound {
                    next += 1
                    let jws = try setup.signedTransaction(id: 5_000_000 + next, productId: "market.coins.10", type: .consumable)
                    lines.append("/v1/customers/hook-\(next)/transactions\t"
                        + String(decoding: try ServerBenchSetup.postBody(jws), as: UTF8.self))
                }
                let roundFolder = setup.folder.appendingPathComponent("round-\(pass)-\(index)")
                try FileManager.default.createDirectory(at: roundFolder, withIntermediateDirectories: true)
                let files = try PostScript.write(lines: lines, folder: roundFolder)
                results[index].append(try round.run(
                    "http://127.0.0.1:\(servers[index].port)/",
                    headers: ["Authorization: \(setup.authorization)", "Content-Type: application/json"],
                    script: files.script, scriptArguments: [files.requests.path, String(round.threads)]))
            }
        }
        let combined = results.map(WrkRounds.init)
        for (side, result) in zip(sides, combined) {
            Report.line(String(format: "POST coin purchase, %@: %.0f posts/s, p50 %.2f ms, p99 %.2f ms (%d rounds of %d s)",
                               side.name, result.rate, result.p50 * 1e3, result.p99 * 1e3, results[0].count, round.seconds))
            if result.non2xx > 0 || result.socketErrors > 0 {
                Report.line("WARNING \(side.name): \(result.non2xx) non-2xx answers, \(result.socketErrors) socket errors")
            }
        }
        let ratio = combined[1].p99 / max(combined[0].p99, 1e-9)
        Report.line(String(format: "p99 with a receiver that never answers vs without webhooks: %.0f%% (target ≤ 110%%) %@",
                           ratio * 100, ratio <= 1.1 ? "OK" : "MISSED"))
    }
}

/// A loopback TCP socket that listens and never accepts: connections wait in its backlog, never answered.
final class SilentSocket {
    let port: UInt16
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchError("socket() failed") }
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 1_024) == 0 else { throw BenchError("bind/listen failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}
