import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `tally-delivery-harness` over a fresh sandbox and app data directory (removed at the end).
final class CrashHarness {
    let root: URL
    var sandbox: URL { root.appendingPathComponent("sandbox") }
    var app: URL { root.appendingPathComponent("app") }
    /// `--server URL --key KEY --user ID`, appended to `buy` and `state` once set (see ``link(to:user:)``).
    var serverArguments: [String] = []

    /// What `buy` and `state` print.
    struct State: Decodable, Equatable {
        var coins: Decimal
        var transactions: Int
        var unfinished: Int
        var premium: Bool
    }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tally-crash-\(UUID().uuidString)")
        let created = try Self.run(["init", sandbox.path])
        guard created.status == 0 else { throw CLITestError("harness init failed: \(created.stderr)") }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Links the harness's engine to `server` as customer `user` from now on.
    func link(to server: LinkedServer, user: String) {
        serverArguments = ["--server", server.url.absoluteString, "--key", server.publicKey, "--user", user]
    }

    /// What `buy` and `state` print, with the fields of a linked engine.
    struct LinkedState: Decodable, Equatable {
        var coins: Decimal
        var localCoins: Decimal
        var transactions: Int
        var unfinished: Int
        var premium: Bool
        var source: String
    }

    /// Launches the linked harness and returns everything it prints.
    func relaunchLinked() throws -> LinkedState {
        let output = try Self.run(["state", sandbox.path, app.path] + serverArguments)
        guard output.status == 0 else { throw CLITestError("the harness exited \(output.status): \(output.stderr)") }
        return try JSONDecoder().decode(LinkedState.self, from: Data(output.stdout.utf8))
    }

    static var executable: URL { TallyProcess.productsDirectory.appendingPathComponent("tally-delivery-harness") }

    /// Buys `product` to the end and returns the state printed after.
    func buy(_ product: String) throws -> State {
        try Self.state(from: Self.run(["buy", sandbox.path, app.path, product] + serverArguments))
    }

    /// Launches the harness (delivering what is unfinished) and returns the state it prints.
    func relaunch() throws -> State {
        try Self.state(from: Self.run(["state", sandbox.path, app.path] + serverArguments))
    }

    /// Buys `product` with `TALLY_DELIVERY_PAUSE=step`, waits (up to `timeout`) for its `PAUSED` line, kills
    /// it with SIGKILL and returns the transaction id it paused on. Throws when it never pauses or does not
    /// die by signal 9.
    func buyAndKill(_ product: String, at step: String, timeout: Duration = .seconds(30)) throws -> String {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["buy", sandbox.path, app.path, product] + serverArguments
        process.environment = ProcessInfo.processInfo.environment.merging(["TALLY_DELIVERY_PAUSE": step]) { $1 }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let collected = OutputCollector()
        stdout.fileHandleForReading.readabilityHandler = { collected.append($0.availableData) }
        try process.run()
        defer { stdout.fileHandleForReading.readabilityHandler = nil }

        let deadline = ContinuousClock.now.advanced(by: timeout)
        var line = collected.line(startingWith: "PAUSED ")
        while line == nil, process.isRunning, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            line = collected.line(startingWith: "PAUSED ")
        }
        guard let line else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw CLITestError("the harness never printed 'PAUSED \(step) …' within \(timeout) "
                + "(stdout: \(collected.text), stderr: \(errors))")
        }
        guard kill(process.processIdentifier, SIGKILL) == 0 else {
            throw CLITestError("kill(\(process.processIdentifier), SIGKILL) failed: errno \(errno)")
        }
        process.waitUntilExit()
        guard process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL else {
            throw CLITestError("the harness ended with reason \(process.terminationReason.rawValue), "
                + "status \(process.terminationStatus); expected death by signal 9")
        }
        let words = line.split(separator: " ")
        guard words.count == 3, words[1] == step else { throw CLITestError("unexpected pause line '\(line)'") }
        return String(words[2])
    }

    static func run(_ arguments: [String]) throws -> TallyProcess.Output {
        var environment = ProcessInfo.processInfo.environment
        environment["TALLY_DELIVERY_PAUSE"] = nil
        return try TallyProcess.run(executable: executable, arguments, environment: environment)
    }

    static func state(from output: TallyProcess.Output) throws -> State {
        guard output.status == 0 else {
            throw CLITestError("the harness exited \(output.status): \(output.stderr)")
        }
        do {
            return try JSONDecoder().decode(State.self, from: Data(output.stdout.utf8))
        } catch {
            throw CLITestError("the harness printed no state line: \(output.stdout)")
        }
    }
}

/// Bytes a pipe's readability handler delivers on its own queue, read by the test's thread.
/// `@unchecked Sendable`: `data` is only touched while holding `lock`.
final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ chunk: Data) {
        lock.withLock { data.append(chunk) }
    }

    func replace(with newData: Data) {
        lock.withLock { data = newData }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    /// The first complete line starting with `prefix`, if one has arrived.
    func line(startingWith prefix: String) -> String? {
        let text = self.text
        guard let end = text.lastIndex(of: "\n") else { return nil }
        return text[..<end].split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }
}
