import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tally-bench sandbox`: the real release `tally` on a sandbox of 31 accounts × 20 years of monthly renewals
/// (built through `tally sandbox`), beside the same on an empty sandbox: the wall time of `tally market status`
/// (the first run delivers and finishes the account's 240 renewals; then best of 5) and the CPU an idle
/// interactive `tally market` uses over 10 s (from /proc/PID/stat).
enum SandboxBenchmark {
    static let accounts = 31
    static let years = 20
    static let statusLimit = 0.200
    static let idleLimit = 1.0

    static func run() -> Bool {
        Report.header("sandbox")
        guard let tally = BenchTools.tally() else {
            Report.line("no tally binary beside tally-bench: run 'swift build -c release' first")
            return false
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        do {
            let big = root.appendingPathComponent("big"), empty = root.appendingPathComponent("empty")
            let built = try Stopwatch.seconds { try build(big, accounts: accounts, years: years, tally: tally) }
            try build(empty, accounts: 0, years: 0, tally: tally)
            Report.line(String(format: "built %d accounts × %d years of monthly renewals in %.1f s (%@)",
                               accounts, years, built, sizeText(big)))
            var ok = true
            for (name, folder) in [("empty", empty), ("31 × 20 years", big)] {
                let status = ["market", "status", "--json", "--account", "a0", "--data", folder.path]
                let first = try Stopwatch.seconds { _ = try BenchTools.output(of: tally, status) }
                let steady = try Stopwatch.best(of: 5) { _ = try BenchTools.output(of: tally, status) }
                Report.line(String(format: "%@: first market status (delivers the account's renewals) %.0f ms",
                                   name, first * 1000))
                Report.underLimit("\(name): market status", value: steady * 1000, unit: "ms", limit: statusLimit * 1000)
                let idle = try idleCPU(tally, folder)
                Report.underLimit("\(name): idle interactive market, CPU over 10 s", value: idle, unit: "%",
                                  limit: idleLimit)
                ok = ok && steady <= statusLimit && idle <= idleLimit
            }
            Report.line(BenchTools.loadAverageNote)
            return ok
        } catch {
            Report.line("failed: \(error)")
            return false
        }
    }

    /// A sandbox from the Market example with `accounts` accounts each subscribed monthly, then `years` later.
    private static func build(_ folder: URL, accounts: Int, years: Int, tally: URL) throws {
        let config = BenchTools.packageRoot.appendingPathComponent("Examples/Market/Market.storekit").path
        _ = try BenchTools.output(of: tally, ["sandbox", "init", "--config", config, "--data", folder.path,
                               "--start", "2006-01-01T09:00:00Z"])
        for account in 0..<accounts {
            _ = try BenchTools.output(of: tally, ["sandbox", "buy", "market.pro.monthly", "--account", "a\(account)",
                                   "--data", folder.path])
        }
        if years > 0 { _ = try BenchTools.output(of: tally, ["sandbox", "advance", "\(years)y", "--data", folder.path]) }
    }

    /// Percent of one core an interactive `tally market` waiting for input uses over 10 s, after it is up.
    private static func idleCPU(_ tally: URL, _ folder: URL) throws -> Double {
        let process = Process()
        process.executableURL = tally
        process.arguments = ["market", "--account", "a0", "--data", folder.path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.terminate()
            process.waitUntilExit()
        }
        Thread.sleep(forTimeInterval: 3)
        guard let before = ProcessCPU.seconds(of: process.processIdentifier) else { throw BenchError("no /proc stat for market") }
        let start = Date()
        Thread.sleep(forTimeInterval: 10)
        guard let after = ProcessCPU.seconds(of: process.processIdentifier) else { throw BenchError("the market exited") }
        return (after - before) / Date().timeIntervalSince(start) * 100
    }

    private static func sizeText(_ folder: URL) -> String {
        let bytes = (try? FileManager.default.attributesOfItem(
            atPath: folder.appendingPathComponent("sandbox.sqlite").path)[.size] as? Int) ?? 0
        return String(format: "sandbox.sqlite %.1f MB", Double(bytes) / 1_000_000)
    }
}
