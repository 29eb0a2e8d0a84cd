import Foundation

/// Profiling aid: with `TALLY_BENCH_PERF=<folder>`, `perf record -g` attaches to the server process for one wrk
/// run and writes `<folder>/<name>.data` (read it with `perf report -i … --no-children`); without it, nothing.
struct PerfRecord {
    private let process: Process?

    /// Starts recording `pid` into `<TALLY_BENCH_PERF>/<name>.data`, when that variable is set and perf is there.
    init(pid: Int32, name: String) {
        guard let folder = ProcessInfo.processInfo.environment["TALLY_BENCH_PERF"],
            let perf = BenchTools.find("perf")
        else {
            process = nil
            return
        }
        let callGraph = ProcessInfo.processInfo.environment["TALLY_BENCH_PERF_CALL_GRAPH"] ?? "fp"
        let recorder = Process()
        recorder.executableURL = perf
        recorder.arguments = ["record", "-F", "999", "--call-graph", callGraph, "-p", String(pid),
                              "-o", URL(fileURLWithPath: folder).appendingPathComponent("\(name).data").path]
        recorder.standardOutput = FileHandle.nullDevice
        recorder.standardError = FileHandle.nullDevice
        do {
            try recorder.run()
            Thread.sleep(forTimeInterval: 0.5)  // perf attaches before the load starts
            process = recorder
        } catch {
            process = nil
        }
    }

    /// Stops recording (SIGINT, as Ctrl-C would) and waits for perf to write its file.
    func stop() {
        guard let process else { return }
        process.interrupt()
        process.waitUntilExit()
    }
}
