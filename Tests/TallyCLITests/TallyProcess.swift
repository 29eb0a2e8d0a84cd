import Foundation

/// Runs the built `tally` executable and captures what it prints.
struct TallyProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String

        /// Standard output parsed as one JSON document.
        func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
                throw CLITestError("stdout is not a JSON object: \(stdout)")
            }
            return object
        }
    }

    /// The folder holding the built products (the test bundle's folder on Linux, the .xctest's parent on macOS).
    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }

    /// The package root, from this file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Runs `tally` with `arguments`, feeding `input` to its standard input.
    static func run(_ arguments: [String], input: String = "") throws -> Output {
        try run(executable: productsDirectory.appendingPathComponent("tally"), arguments, input: input)
    }

    /// Runs `executable` with `arguments` and waits for it: with `environment` when given (else this process's),
    /// and `input` on its standard input when given (else this process's standard input).
    static func run(executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                    input: String? = nil) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        if input != nil { process.standardInput = stdin }
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self))
    }
}

/// A sandbox data directory made from the Market example, removed at the end of the test.
final class MarketSandbox {
    let directory: URL

    init(start: String = "2026-01-01T09:00:00Z") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-cli-\(UUID().uuidString)")
        let config = TallyProcess.packageRoot.appendingPathComponent("Examples/Market/Market.storekit").path
        let created = try TallyProcess.run(["sandbox", "init", "--config", config, "--data", directory.path,
                                            "--start", start])
        guard created.status == 0 else { throw CLITestError("init failed: \(created.stderr)") }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Runs `tally sandbox <command> … --data <this directory>`.
    func run(_ arguments: String..., input: String = "") throws -> TallyProcess.Output {
        try TallyProcess.run(["sandbox"] + arguments + ["--data", directory.path], input: input)
    }
}

struct CLITestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The features of a `state --json` / `status --json` object: its `entitlements` are the server's customer object's
/// (`{"feature", "productIds", "expiresDate"}` each); nil when the member is not that.
enum Features {
    static func of(_ json: [String: Any]) -> [String]? {
        guard let entitlements = json["entitlements"] as? [[String: Any]] else { return nil }
        let features = entitlements.compactMap { $0["feature"] as? String }
        return features.count == entitlements.count ? features : nil
    }
}
