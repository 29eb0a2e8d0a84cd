import Foundation

/// A running `tally serve` child process: started with `--listen 127.0.0.1:0`, its port read from the
/// "listening on" line, stopped with SIGTERM.
final class TallyServeProcess {
    let process = Process()
    /// The port from the "listening on" line.
    private(set) var port: UInt16 = 0
    private let stdoutFile: URL
    private let stderrFile: URL

    /// Starts `tally serve --data <folder>/data --config <config> --listen 127.0.0.1:0` and waits (up to a
    /// minute) for the "listening on" line; output goes to files in `folder`.
    init(tally: URL, config: URL, folder: URL) throws {
        stdoutFile = folder.appendingPathComponent("serve.out")
        stderrFile = folder.appendingPathComponent("serve.err")
        process.executableURL = tally
        process.arguments = ["serve", "--data", folder.appendingPathComponent("data").path, "--config", config.path,
                             "--listen", "127.0.0.1:0"]
        process.standardOutput = try BenchTools.emptyFile(stdoutFile)
        process.standardError = try BenchTools.emptyFile(stderrFile)
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let port = listeningPort() {
                self.port = port
                return
            }
            guard process.isRunning else {
                throw BenchError("tally serve exited \(process.terminationStatus): \(errorText)")
            }
            usleep(20_000)
        }
        stop()
        throw BenchError("tally serve printed no \"listening on\" line within a minute: \(errorText)")
    }

    deinit {
        stop()
    }

    /// What the server wrote to standard error so far.
    var errorText: String {
        (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
    }

    /// Sends SIGTERM and waits for the exit; returns the exit status (0 for a clean stop).
    @discardableResult
    func stop() -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The port in "tally serve: listening on http://127.0.0.1:PORT", once printed.
    private func listeningPort() -> UInt16? {
        guard let text = try? String(contentsOf: stdoutFile, encoding: .utf8),
            let range = text.range(of: "listening on http://")
        else { return nil }
        let rest = text[range.upperBound...].prefix { $0 != "\n" }
        guard rest.count < text.count, let colon = rest.lastIndex(of: ":") else { return nil }
        return UInt16(rest[rest.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
}
