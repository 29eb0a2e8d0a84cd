import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ServerProcess {
    /// How a `tally serve` that was expected to refuse its configuration ended.
    struct Exit {
        var status: Int32
        var stderr: String
    }

    /// Runs `tally serve --data data --config config --listen 127.0.0.1:0` expecting it to exit by itself;
    /// throws (after a SIGKILL) if it is still running after `timeout`.
    static func runToExit(data: URL, config: URL, timeout: TimeInterval = 60) throws -> Exit {
        let process = Process()
        process.executableURL = TestPaths.tally
        process.arguments = ["serve", "--data", data.path, "--config", config.path, "--listen", "127.0.0.1:0"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = OutputBuffer(reading: out.fileHandleForReading)
        let stderr = OutputBuffer(reading: err.fileHandleForReading)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw HarnessError("tally serve kept running with a bad configuration; stdout: \(stdout.text)")
        }
        process.waitUntilExit()
        _ = stderr.wait(until: Date().addingTimeInterval(5)) { _ in stderr.isClosed ? true : nil }
        return Exit(status: process.terminationStatus, stderr: stderr.text)
    }
}
