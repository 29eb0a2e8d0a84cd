import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// (f) Posts while webhooks go to a receiver that never answers (issue: "a receiver that never answers does not
/// slow posts"): two `tally serve` on one setup, one without webhooks and one sending every event to a socket that
/// listens and never reads (each send waits out its timeout), take fresh coin purchases in alternating wrk rounds
/// (ABBA, twice), so the machine's load falls on both alike. Reports both p99s and their ratio (target ≤ 110%), and
/// proves the webhooks were on by the outbox's count of undelivered deliveries afterwards.
enum WebhookPostBenchmark {
    /// `tally-bench webhooks`: part (f) of `tally-bench server` alone.
    static func run() -> Bool {
        Report.header("webhooks")
        guard let tally = BenchTools.tally(), let wrkPath = BenchTools.find("wrk") else {
            Report.line("skipped: needs the tally executable beside tally-bench and wrk")
            return true
        }
        let seconds = max(1, ProcessInfo.processInfo.environment["TALLY_BENCH_SECONDS"].flatMap { Int($0) } ?? 10)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let setup = try ServerBenchSetup(tally: tally, folder: folder)
            try measure(setup: setup, tally: tally, wrk: Wrk(executable: wrkPath, seconds: seconds))
            return true
        } catch {
            Report.line("could not run: \(error)")
            return false
        }
    }

    static func measure(setup: ServerBenchSetup, tally: URL, wrk: Wrk) throws {
        let blackHole = try BlackHoleListener()
        defer { blackHole.close() }
        let config = setup.folder.appendingPathComponent("tally-server-webhooks.json")
        var document = try JSONSerialization.jsonObject(with: Data(contentsOf: setup.config)) as? [String: Any] ?? [:]
        document["webhooks"] = [["url": "http://127.0.0.1:\(blackHole.port)/never-answers", "secret": "bench-secret",
                                 "events": ["*"], "timeoutSeconds": 10]]
        try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]).write(to: config)
        let plainFolder = setup.folder.appendingPathComponent("plain"), hookedFolder = setup.folder.appendingPathComponent("hooked")
        for folder in [plainFolder, hookedFolder] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let plain = try TallyServeProcess(tally: tally, config: setup.config, folder: plainFolder)
        let hooked = try TallyServeProcess(tally: tally, config: config, folder: hookedFolder)
        defer {
            plain.stop()
            hooked.stop()
        }
        var round = wrk
        round.seconds = max(1, wrk.seconds / 2)
        let perRound = 4_000 * round.seconds
        var results: [[WrkResult]] = [[], []]
        var next = 5_000_000
        for side in [0, 1, 1, 0, 0, 1, 1, 0] {
            let server = side == 0 ? plain : hooked
            var lines: [String] = []
            lines.reserveCapacity(perRound)
            for index in 0..<perRound {
                let jws = try setup.signedTransaction(id: next + index, productId: "market.coins.10", type: .consumable)
                let body = String(decoding: try ServerBenchSetup.postBody(jws), as: UTF8.self)
                lines.append("/v1/customers/bench-hook-\(next + index)/transactions\t\(body)")
            }
            next += perRound
            let roundFolder = setup.folder.appendingPathComponent("hook-round-\(next)")
            try FileManager.default.createDirectory(at: roundFolder, withIntermediateDirectories: true)
            let files = try PostScript.write(lines: lines, folder: roundFolder)
            results[side].append(try round.run(
                "http://127.0.0.1:\(server.port)/",
                headers: ["Authorization: \(setup.authorization)", "Content-Type: application/json"],
                script: files.script, scriptArguments: [files.requests.path, String(round.threads)]))
        }
        let without = WrkRounds(results[0]), with = WrkRounds(results[1])
        Report.line(String(format: "POST …/transactions without webhooks: %.0f posts/s, p50 %.2f ms, p99 %.2f ms",
                           without.rate, without.p50 * 1e3, without.p99 * 1e3))
        Report.line(String(format: "POST …/transactions, every event sent to a receiver that never answers: %.0f posts/s, "
                           + "p50 %.2f ms, p99 %.2f ms", with.rate, with.p50 * 1e3, with.p99 * 1e3))
        let ratio = with.p99 / max(without.p99, 1e-9)
        Report.line(String(format: "p99 with webhooks vs without: %.0f%% (target ≤ 110%%) %@ (%d rounds of %d s each, ABBA)",
                           ratio * 100, ratio <= 1.1 ? "OK" : "MISSED", results[0].count, round.seconds))
        for (name, result) in [("without webhooks", without), ("with webhooks", with)]
        where result.non2xx > 0 || result.socketErrors > 0 {
            Report.line("WARNING posts \(name): \(result.non2xx) non-2xx answers, \(result.socketErrors) socket errors")
        }
        let stats = try JSONSerialization.jsonObject(with: BenchHTTP.get(
            "http://127.0.0.1:\(hooked.port)/v1/dashboard/webhooks?limit=1", headers: ["Authorization": setup.authorization]))
        let pending = ((stats as? [String: Any])?["stats"] as? [String: Any])?["pending"] as? Int ?? 0
        Report.line("webhooks were on: \(pending) deliveries wait in the outbox for the receiver that never answers")
        guard pending > 0 else { throw BenchError("the server with webhooks wrote no events: \(hooked.errorText)") }
    }
}

/// A TCP socket on loopback that listens and never accepts: the kernel completes the connections, and nothing is
/// ever read or answered, so every webhook send waits out its timeout.
final class BlackHoleListener {
    let port: UInt16
    private let descriptor: Int32

    init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        self.descriptor = descriptor
        guard descriptor >= 0 else { throw BenchError("socket() failed: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 4_096) == 0 else { throw BenchError("bind/listen failed: \(errno)") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw BenchError("getsockname failed: \(errno)") }
        port = UInt16(bigEndian: address.sin_port)
    }

    func close() {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }
}
