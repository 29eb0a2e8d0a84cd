import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `webhook_receiver.py` running on loopback: what it was sent, each attempt a line, signature and timestamp checked
/// by Python's own `hmac`. Killed when released.
final class WebhookReceiver {
    /// One attempt as the receiver logged it.
    struct Attempt {
        var id: String
        var valid: Bool
        var fresh: Bool
        var status: Int
        var contentType: String?
        /// The body as received.
        var body: String
        /// The body's JSON object.
        var event: [String: Any]
        /// Never answered (`hangUser`).
        var hung: Bool
        /// The request's path.
        var path: String
    }

    let port: Int
    let secret: String
    private let log: URL
    private let process = Process()
    private let stdout: OutputBuffer

    /// Starts a receiver checking signatures with `secret`, failing its first `failFirst` attempts with a 500, or
    /// never answering (`hang`), or never answering the events of the customer `hangUser`, or answering its first
    /// `redirectFirst` attempts with a 307 to `/followed`.
    init(secret: String = "whsec_" + Data((0..<24).map { _ in UInt8.random(in: 0...255) }).base64EncodedString(),
         failFirst: Int = 0, hang: Bool = false, hangUser: String? = nil, redirectFirst: Int = 0) throws {
        self.secret = secret
        log = FileManager.default.temporaryDirectory.appendingPathComponent("webhooks-\(UUID().uuidString).jsonl")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestPaths.packageRoot.appendingPathComponent(
            "Tests/TallyServerProcessTests/webhook_receiver.py").path, secret, log.path, "--fail-first", String(failFirst)]
            + (hang ? ["--hang"] : []) + (hangUser.map { ["--hang-user", $0] } ?? [])
            + ["--redirect-first", String(redirectFirst)]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.standardError
        try process.run()
        stdout = OutputBuffer(reading: out.fileHandleForReading)
        guard let port = stdout.wait(until: Date().addingTimeInterval(20), for: { text in
            text.components(separatedBy: "\n").first { $0.hasPrefix("listening on ") }
                .flatMap { Int($0.dropFirst("listening on ".count)) }
        }) else {
            process.terminate()
            throw HarnessError("webhook_receiver.py did not start: \(stdout.text)")
        }
        self.port = port
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: log)
    }

    /// The endpoint's `url`.
    var url: String { "http://127.0.0.1:\(port)/hooks" }

    /// The `webhooks` entry of a configuration sending every event here, retrying after `delay` seconds at first.
    func configuration(events: [String] = ["*"], attempts: Int = 12, delay: Double = 0.2, maxDelay: Double = 1,
                       timeout: Double = 2) -> [String: Any] {
        ["url": url, "secret": secret, "events": events, "timeoutSeconds": timeout,
         "retry": ["attempts": attempts, "initialDelaySeconds": delay, "maxDelaySeconds": maxDelay]]
    }

    /// Every attempt logged so far, in arrival order.
    func attempts() throws -> [Attempt] {
        let text = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Attempt(id: object["id"] as? String ?? "", valid: object["valid"] as? Bool ?? false,
                           fresh: object["fresh"] as? Bool ?? false, status: object["status"] as? Int ?? 0,
                           contentType: object["contentType"] as? String, body: object["body"] as? String ?? "",
                           event: object["event"] as? [String: Any] ?? [:], hung: object["hung"] as? Bool ?? false,
                           path: object["path"] as? String ?? "")
        }
    }

    /// The attempts answered 200, deduplicated by id (the first of each), in arrival order: what a receiver
    /// that dedupes by `Tally-Webhook-Id` processes.
    func accepted() throws -> [Attempt] {
        var seen = Set<String>()
        return try attempts().filter { $0.status == 200 && seen.insert($0.id).inserted }
    }

    /// Waits (at most `timeout`) until `done` holds for the accepted events; returns them.
    @discardableResult
    func waitForAccepted(timeout: TimeInterval = 60, _ done: ([Attempt]) -> Bool) async throws -> [Attempt] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let accepted = try accepted()
            if done(accepted) { return accepted }
            guard Date() < deadline else {
                throw HarnessError("the receiver's accepted events never satisfied the wait: \(accepted.map { $0.event["type"] ?? "?" })")
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }
}
