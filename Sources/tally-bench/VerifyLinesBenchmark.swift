import Foundation
import TallyCore
import TallySandbox

/// The real `tally verify --lines` process over 20,000 and 40,000 signed transactions (one per line, read from a
/// file, output to a file): lines per second, beside the library's one-thread rate measured in the same run, and
/// the 40k/20k time ratio (linearity). Wall-clock and processor time are both printed: on a shared machine the
/// first also measures the other work.
enum VerifyLinesBenchmark {
    static let sizes = [20_000, 40_000]

    /// Seconds for each size (best of `runs`); every output line is checked to be a valid answer.
    struct Timing {
        var lines: Int
        /// Wall-clock seconds.
        var seconds: Double
        /// Processor seconds (user + system) of the `tally` process.
        var cpuSeconds: Double
        var rate: Double { Double(lines) / seconds }
        var cpuRate: Double { Double(lines) / cpuSeconds }
    }

    /// One pass of the library: JWS per second of wall-clock and of processor time.
    struct LibraryRate {
        var wall: Double
        var cpu: Double
    }

    /// Runs the entry and prints its lines. `libraryRate` measures one pass of the one-thread `SignedDataVerifier`
    /// (JWS/s); it runs between the process runs, round by round, so that a shared machine's load drifting
    /// during the run weighs on both sides alike. Each side keeps its best round.
    static func run(signer: SandboxSigner, rootDER: Data, bundleId: String, now: Date, opensslRate: Double?,
                    libraryRate: () -> LibraryRate)
    {
        guard let tally = BenchTools.tally() else {
            Report.line("tally verify --lines not measured: build it first (swift build -c release --product tally)")
            return
        }
        // Profiling aid: TALLY_BENCH_LINES_DIR=path keeps the root, input and output files there.
        let kept = ProcessInfo.processInfo.environment["TALLY_BENCH_LINES_DIR"].map { URL(fileURLWithPath: $0) }
        let folder = kept
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-\(UUID().uuidString)")
        defer { if kept == nil { try? FileManager.default.removeItem(at: folder) } }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let root = folder.appendingPathComponent("root.der")
            try rootDER.write(to: root)
            let largest = sizes.max() ?? 0
            let tokens = try (0..<largest).map { index in
                try signer.signTransaction(DeviceTransaction.consumable(
                    id: String(2_000_000_200_000_000 + index), bundleId: bundleId, productId: "coins.\(index % 7)",
                    now: now))
            }
            var inputs: [URL] = []
            for size in sizes {
                let input = folder.appendingPathComponent("jws-\(size).txt")
                try Data((tokens.prefix(size).joined(separator: "\n") + "\n").utf8).write(to: input)
                inputs.append(input)
            }
            var timings = sizes.map { Timing(lines: $0, seconds: .infinity, cpuSeconds: .infinity) }
            var library = LibraryRate(wall: 0, cpu: 0)
            for _ in 0..<3 {
                let pass = libraryRate()
                library = LibraryRate(wall: max(library.wall, pass.wall), cpu: max(library.cpu, pass.cpu))
                for (index, size) in sizes.enumerated() {
                    let arguments = ["verify", "--root", root.path, "--environment", "sandbox", "--bundle-id", bundleId,
                                     "--lines", inputs[index].path]
                    let output = folder.appendingPathComponent("out-\(size).jsonl")
                    let (seconds, cpu) = try timedRun(tally, arguments, output: output, expectedLines: size)
                    timings[index].seconds = min(timings[index].seconds, seconds)
                    timings[index].cpuSeconds = min(timings[index].cpuSeconds, cpu)
                }
            }
            Report.line(String(format: "Tally SignedDataVerifier, 1 thread, between the process runs: %.0f JWS/s "
                               + "(%.0f per CPU second)", library.wall, library.cpu))
            for timing in timings {
                Report.line(String(format: "tally verify --lines (process, %d lines): %.0f lines/s (%.2f s; %.0f per CPU second)",
                                   timing.lines, timing.rate, timing.seconds, timing.cpuRate))
            }
            let ratio = timings[0].rate / library.wall, cpuRatio = timings[0].cpuRate / library.cpu
            Report.line(String(format: "--lines (20k) vs library 1 thread: %.0f%% wall-clock, %.0f%% CPU time (target ≥ 80%%) %@",
                               100 * ratio, 100 * cpuRatio, ratio >= 0.8 ? "OK" : cpuRatio >= 0.8 ? "OK in CPU time" : "MISSED"))
            if let opensslRate {
                let speed = timings[0].rate / opensslRate, cpuSpeed = timings[0].cpuRate / opensslRate
                Report.line(String(format: "--lines (20k) vs openssl speed ecdsap256: %.0f%% wall-clock, %.0f%% CPU time "
                                   + "(target ≥ 65%%) %@", 100 * speed, 100 * cpuSpeed,
                                   speed >= 0.65 ? "OK" : cpuSpeed >= 0.65 ? "OK in CPU time" : "MISSED"))
            }
            let growth = timings[1].seconds / timings[0].seconds
            let cpuGrowth = timings[1].cpuSeconds / timings[0].cpuSeconds
            Report.line(String(format: "--lines 40k/20k time: %.2f× wall-clock, %.2f× CPU (target ≤ 2.2×) %@", growth, cpuGrowth,
                               growth <= 2.2 ? "OK" : cpuGrowth <= 2.2 ? "OK in CPU time" : "MISSED"))
        } catch {
            Report.line("tally verify --lines not measured: \(error)")
        }
    }

    /// Wall-clock seconds of one `tally verify --lines` run; fails unless it exits 0 with `expectedLines` valid answers.
    static func timedRun(_ tally: URL, _ arguments: [String], output: URL, expectedLines: Int) throws
        -> (wall: Double, cpu: Double)
    {
        let process = Process()
        process.executableURL = tally
        process.arguments = arguments
        process.standardOutput = try BenchTools.emptyFile(output)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let cpuBefore = CPUTime.childrenSeconds
        let seconds = try Stopwatch.seconds {
            try process.run()
            process.waitUntilExit()
        }
        guard process.terminationStatus == 0 else {
            throw BenchError("tally verify --lines exited \(process.terminationStatus)")
        }
        let data = try Data(contentsOf: output)
        let prefix = Array(#"{"kind":"transaction","payload":"#.utf8), suffix = Array(#","valid":true}"#.utf8)
        let valid = data.split(separator: UInt8(ascii: "\n")).filter { line in
            line.starts(with: prefix) && line.suffix(suffix.count).elementsEqual(suffix)
        }.count
        guard valid == expectedLines else {
            throw BenchError("tally verify --lines printed \(valid) valid answers for \(expectedLines) lines")
        }
        return (seconds, CPUTime.childrenSeconds - cpuBefore)
    }
}
