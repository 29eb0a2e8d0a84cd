import Foundation

/// Runs one of the Python scripts beside these tests that drive a `tally` server through Apple's own
/// `app-store-server-library`, and reads the JSON object it prints.
enum ApplePythonClient {
    /// `python3 <script> <arguments…>`; throws with the script's output when it fails or prints no JSON object.
    static func run(_ script: String, _ arguments: [String]) throws -> [String: Any] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(script).path
        let output = try TallyProcess.run(executable: URL(fileURLWithPath: "/usr/bin/env"), ["python3", path] + arguments)
        guard output.status == 0,
              let object = try? JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any] else {
            throw CLITestError("Apple's client \(script) failed (\(output.status)): \(output.stdout)\(output.stderr)")
        }
        return object
    }
}

extension MarketSandbox {
    /// The sandbox's root certificate (DER) in a file, written by `tally sandbox root --der` itself (once).
    func rootDER() throws -> String {
        let path = directory.appendingPathComponent("root-for-test.der")
        if FileManager.default.fileExists(atPath: path.path) { return path.path }
        let process = Process()
        process.executableURL = TallyProcess.productsDirectory.appendingPathComponent("tally")
        process.arguments = ["sandbox", "root", "--der", "--data", directory.path]
        FileManager.default.createFile(atPath: path.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: path)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            try? FileManager.default.removeItem(at: path)
            throw CLITestError("tally sandbox root --der failed")
        }
        return path.path
    }
}
