import Foundation

/// Runs `bench/apple_verify.py` (Apple's app-store-server-library) over the same JWS and reads its timing.
enum AppleLibraryPeer {
    struct Timing: Decodable {
        var count: Int
        var seconds: Double
        var library: String
    }

    static func measure(tokens: [String], rootDER: Data, bundleId: String) -> Result<Timing, BenchError> {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("bench/apple_verify.py")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let root = folder.appendingPathComponent("root.der")
            let jws = folder.appendingPathComponent("jws.txt")
            try rootDER.write(to: root)
            try Data(tokens.joined(separator: "\n").utf8).write(to: jws)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path, root.path, bundleId, "Sandbox", jws.path]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            let message = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                let text = String(decoding: message, as: UTF8.self).split(separator: "\n").last ?? "no output"
                return .failure(BenchError("python3 \(script.lastPathComponent) exited \(process.terminationStatus): "
                    + "\(text) (pip install app-store-server-library)"))
            }
            return .success(try JSONDecoder().decode(Timing.self, from: data))
        } catch {
            return .failure(BenchError("\(error)"))
        }
    }
}
