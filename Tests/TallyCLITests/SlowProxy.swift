import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `slow_proxy.py` in front of a real `tally serve`: forwards every request, and holds the answer to one chosen
/// request back until released (a slow network for one call), so a test can make an answer land after the engine
/// moved on. Killed when released.
final class SlowProxy {
    private let process = Process()
    private let control: URL
    /// The proxy's base URL: give it to the engine's ``ServerLink`` instead of the server's.
    private(set) var url = URL(string: "http://127.0.0.1")!

    /// Starts the proxy in `directory`, forwarding to `target`.
    init(to target: URL, in directory: URL) throws {
        let name = "slow-proxy-\(UUID().uuidString)"
        let portFile = directory.appendingPathComponent("\(name).port")
        control = directory.appendingPathComponent("\(name).control")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("slow_proxy.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, portFile.path, target.absoluteString, control.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let port = try? String(contentsOf: portFile, encoding: .utf8), !port.isEmpty {
                url = URL(string: "http://127.0.0.1:\(port)")!
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw CLITestError("slow_proxy.py did not start")
    }

    deinit { stop() }

    /// From now on the answer to `method path` is held back until ``release()``.
    func holdBack(_ method: String, _ path: String) throws {
        try Data("\(method) \(path)".utf8).write(to: control)
    }

    /// From now on `from` is replaced by `to` in every answer's bytes.
    func rewrite(_ from: String, to: String) throws {
        try Data("\(from)\t\(to)".utf8).write(to: URL(fileURLWithPath: control.path + ".rewrite"))
    }

    /// From now on every GET gets the first answer captured for its path (body and `Tally-Signature`), unforwarded.
    func replay() throws {
        try Data("replay".utf8).write(to: URL(fileURLWithPath: control.path + ".replay"))
    }

    /// Lets the held answers go (and holds no more).
    func release() throws {
        try FileManager.default.removeItem(at: control)
    }

    /// Whether the proxy has received `method path` since it started.
    func received(_ method: String, _ path: String) -> Bool {
        let seen = (try? String(contentsOfFile: control.path + ".seen", encoding: .utf8)) ?? ""
        return seen.split(separator: "\n").contains { $0 == "\(method) \(path)" }
    }

    /// SIGKILL (the test process blocks SIGTERM for its children).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
