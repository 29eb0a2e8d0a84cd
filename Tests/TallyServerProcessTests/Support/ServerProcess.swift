import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running `tally serve`, started on `127.0.0.1:0`. Killed (SIGKILL) when released while still running,
/// so a failing test never leaves a server behind.
final class ServerProcess {
    /// The port from the `listening on` line.
    let port: Int
    /// What the server printed on standard output and standard error.
    let stdout: OutputBuffer, stderr: OutputBuffer
    private let process: Process

    /// The announcement `tally serve` prints once it accepts connections.
    static let listeningPrefix = "tally serve: listening on http://127.0.0.1:"

    /// Starts `tally serve --data data --config config --listen 127.0.0.1:0` and waits (at most `timeout`)
    /// for its `listening on` line; the error carries what the server wrote on stderr.
    /// `environment` is added to the test's own (a `store.urlEnv` variable, for one).
    init(data: URL, config: URL, environment: [String: String] = [:], timeout: TimeInterval = 60) throws {
        process = Process()
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.executableURL = TestPaths.tally
        process.arguments = ["serve", "--data", data.path, "--config", config.path, "--listen", "127.0.0.1:0"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        stdout = OutputBuffer(reading: out.fileHandleForReading)
        stderr = OutputBuffer(reading: err.fileHandleForReading)
        let found = stdout.wait(until: Date().addingTimeInterval(timeout), for: Self.port(in:))
        guard let found else {
            // A closed stdout means the server is exiting: let it, then report how it ended.
            let running = !stdout.isClosed && process.isRunning
            if running { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw HarnessError("""
                tally serve did not print '\(Self.listeningPrefix)PORT' \
                (\(running ? "still running after \(Int(timeout)) s" : "exited with status \(process.terminationStatus)")).
                stdout: \(stdout.text)
                stderr: \(stderr.text)
                """)
        }
        port = found
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The process id.
    var pid: Int32 { process.processIdentifier }

    /// Whether the server is still running.
    var isRunning: Bool { process.isRunning }

    /// Sends `signal` (SIGTERM by default) and waits (at most `timeout`) for the exit; returns the exit
    /// status, or throws (after a SIGKILL) when it does not stop or dies of a signal.
    func terminate(with signal: Int32 = SIGTERM, timeout: TimeInterval = 30) throws -> Int32 {
        kill(pid, signal)
        try waitForExit(timeout: timeout)
        guard process.terminationReason == .exit else {
            throw HarnessError("tally serve died of signal \(process.terminationStatus) after signal \(signal); stderr: \(stderr.text)")
        }
        return process.terminationStatus
    }

    /// Sends SIGKILL (if still running) and waits for the process to go.
    func killNow() throws {
        guard process.isRunning else { return }
        kill(pid, SIGKILL)
        try waitForExit(timeout: 30)
    }

    private func waitForExit(timeout: TimeInterval) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
            throw HarnessError("tally serve was still running \(Int(timeout)) s after the signal; stderr: \(stderr.text)")
        }
        process.waitUntilExit()
    }

    /// The port in the first `listening on` line of `text`, once the line is complete.
    static func port(in text: String) -> Int? {
        // The last piece has no newline yet: it may still grow.
        for line in text.components(separatedBy: "\n").dropLast() where line.hasPrefix(listeningPrefix) {
            let rest = line.dropFirst(listeningPrefix.count)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count == rest.count else { continue }
            return Int(digits)
        }
        return nil
    }
}
