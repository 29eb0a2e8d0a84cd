import Foundation
import TallyHTTP

/// `tally-bench http`: TallyHTTP alone (in this process, a handler answering fixed bytes) against nginx serving
/// the same bytes, both under the same wrk load: the ceiling `tally serve` can reach.
enum HTTPLayerBenchmark {
    static func run() -> Bool {
        Report.header("http")
        guard let wrkPath = BenchTools.find("wrk"), let nginx = BenchTools.find("nginx") else {
            Report.line("skipped: needs wrk and nginx (apt-get install wrk nginx-light)")
            return true
        }
        let seconds = max(1, ProcessInfo.processInfo.environment["TALLY_BENCH_SECONDS"].flatMap { Int($0) } ?? 10)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = Array(String(repeating: "{\"customer\":{\"appUserId\":\"bench-reader\"}}", count: 10).utf8)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let threads = ProcessInfo.processInfo.environment["TALLY_BENCH_HTTP_THREADS"].flatMap { Int($0) } ?? 4
            var configuration = HTTPServer.Configuration(port: 0, threads: threads)
            if let kilobytes = ProcessInfo.processInfo.environment["TALLY_BENCH_HTTP_MEMORY_KB"].flatMap({ Int($0) }) {
                configuration.memoryLimitPerConnection = kilobytes * 1024
            }
            let server = try HTTPServer(configuration: configuration) { _ in
                HTTPResponse(status: 200, headers: [HTTPResponse.Field("Content-Type", "application/json")],
                             body: body)
            }
            let wrk = Wrk(executable: wrkPath, seconds: seconds)
            let ours = try wrk.run("http://127.0.0.1:\(server.port)/v1/customers/bench-reader")
            server.stop()
            let peer = try NginxPeer(nginx: nginx, folder: folder, path: "v1/customers/bench-reader", body: Data(body))
            let theirs = try wrk.run("http://127.0.0.1:\(peer.port)/v1/customers/bench-reader")
            peer.stop()
            Report.line(String(format: "TallyHTTP, fixed %d-byte answer: %.0f req/s, p50 %.2f ms, p99 %.2f ms",
                               body.count, ours.requestsPerSecond, ours.p50 * 1e3, ours.p99 * 1e3))
            Report.line(String(format: "nginx, same bytes (static file): %.0f req/s, p50 %.2f ms, p99 %.2f ms",
                               theirs.requestsPerSecond, theirs.p50 * 1e3, theirs.p99 * 1e3))
            Report.line(String(format: "TallyHTTP vs nginx: %.0f%%", 100 * ours.requestsPerSecond / theirs.requestsPerSecond))
            return true
        } catch {
            Report.line("could not run: \(error)")
            return false
        }
    }
}
