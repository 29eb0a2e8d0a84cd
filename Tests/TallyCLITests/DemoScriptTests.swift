import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `make demo`'s script, run for real: `tally sandbox serve`, `tally serve` and the market linked to them; a
/// purchase typed into the market reaches the server, a refund made in the sandbox reaches it as a notification,
/// and Ctrl-C (SIGINT to the terminal's process group) stops all three.
@Suite("make demo (scripts/demo.sh)")
struct DemoScriptTests {
    #if os(Linux)
    @Test func theDemoStartsAllThreeLinksThemAndCtrlCStopsThem() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tally-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let demo = Process()
        // As a terminal runs it: its own process group (the terminal's Ctrl-C signals the whole group), SIGINT
        // at its default and unblocked (the test process may ignore or block it, and both are inherited).
        demo.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        demo.arguments = ["python3", "-c", "import os, signal, sys\nsignal.signal(signal.SIGINT, signal.SIG_DFL)\n"
            + "signal.pthread_sigmask(signal.SIG_SETMASK, [])\n"
            + "if os.getpgid(0) != os.getpid(): os.setpgid(0, 0)\nos.execvp('bash', ['bash', sys.argv[1]])",
            TallyProcess.packageRoot.appendingPathComponent("scripts/demo.sh").path]
        var environment = ProcessInfo.processInfo.environment
        environment["DEMO_DATA"] = data.path
        environment["TALLY"] = TallyProcess.productsDirectory.appendingPathComponent("tally").path
        environment["DEMO_OFFERING_AFTER"] = "10"
        demo.environment = environment
        let stdin = Pipe(), stdout = Pipe()
        demo.standardInput = stdin
        demo.standardOutput = stdout
        demo.standardError = stdout
        let output = OutputCollector()
        stdout.fileHandleForReading.readabilityHandler = { [output] in output.append($0.availableData) }
        try demo.run()
        defer { if demo.isRunning { kill(-demo.processIdentifier, SIGKILL) } }

        #expect(try await Self.eventually { output.text.contains("Commands: products") }, "\(output.text)")
        // The server is seeded with the example's offerings; the market shows the current one at start.
        #expect(output.text.contains("Offering default (version 1, from the server)"), "\(output.text)")
        // The market pins the server's signing key (`tally serve signing-key`): no unchecked-link warning.
        #expect(!output.text.contains("serverAnswersUnsigned"), "\(output.text)")
        let line = try #require(output.line(startingWith: "make demo: "), "\(output.text)")
        let api = try #require(Self.url(after: "server (tally serve) ", in: line), "\(line)")
        let appStore = try #require(Self.url(after: "App Store (tally sandbox serve) ", in: line), "\(line)")
        #expect(line.contains("notifying \(api)/v1/notifications/apple"))
        #expect(line.contains("Ctrl-C stops all"))
        #expect(try await Self.status(of: api + "/healthz") == 200)
        // The demo's server requires customer tokens: the public key alone reads no customer (the market plays the
        // app's backend issuing them).
        let publicKey = try Self.key(data.appendingPathComponent("server/keys.json"), role: "public")
        #expect(try await Self.status(of: api + "/v1/customers/demo-user", key: publicKey) == 401)

        // Idle a minute first, as a person at the prompt would: the market keeps reading its state meanwhile, and
        // the rate buckets must refill in real time although the server's clock follows the standing sandbox
        // (before, every request of the demo user was 429 for good after about 40).
        try await Task.sleep(for: .seconds(60))
        // Meanwhile (10 s in) the demo switched the current offering with curl -X PUT …/v1/offerings; the running
        // market showed it at its next refresh, without a restart.
        #expect(line.contains("the demo switches the current offering with curl -X PUT \(api)/v1/offerings"))
        let changeLog = data.appendingPathComponent("offerings-change.log")
        #expect(try await Self.eventually {
            output.text.contains("offeringsChanged intro v2 (server): monthly market.pro.monthly")
        }, "\(output.text) \((try? String(contentsOf: changeLog, encoding: .utf8)) ?? "no offerings-change.log")")
        stdin.fileHandleForWriting.write(Data("buy market.coins.10\n".utf8))
        #expect(try await Self.eventually { output.text.contains("Purchased market.coins.10") }, "\(output.text)")
        let secret = try Self.key(data.appendingPathComponent("server/keys.json"), role: "secret")
        // One session for the polls; no answer may take longer than 10 s of the 60 s window.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        // A liveness check, not a speed one. In the full suite this test's own waits are slow: other suites'
        // blocking waits hold Swift's cooperative threads. With `--access-log`, one full run (60 s for this test)
        // showed the market re-reading its state (once a second) 25 times before `buy` was typed, then the
        // server taking the post in 5 ms and this test's next poll seeing the coins.
        let credited = try await Self.eventually(seconds: 180) { try await Self.coins(api, secret, session) == 10 }
        let answer = credited ? "" : await Self.customerText(api, secret, session)
        #expect(credited, "the purchase did not reach the server: \(answer) \(Self.logs(output.text, data))")

        // A refund in the App Store reaches the server through its notification, with no app involved.
        let transactionId = try #require(Self.transactionId(in: output.text))
        let refund = try TallyProcess.run(["sandbox", "refund", transactionId,
                                           "--data", data.appendingPathComponent("sandbox").path])
        #expect(refund.status == 0, "\(refund.stderr)")
        #expect(try await Self.eventually(seconds: 180) { try await Self.coins(api, secret, session) == 0 },
                "the REFUND did not arrive: \(Self.logs(output.text, data))")

        kill(-demo.processIdentifier, SIGINT)
        #expect(try await Self.eventually { !demo.isRunning }, "Ctrl-C did not stop the demo")
        #expect(try await Self.status(of: api + "/healthz") == nil, "tally serve still answers")
        #expect(try await Self.status(of: appStore) == nil, "tally sandbox serve still answers")
    }
    #endif

    /// What the market printed and what the two servers logged, for a failure's message.
    static func logs(_ market: String, _ data: URL) -> String {
        let files = ["serve.log", "sandbox-serve.log"].map { name in
            "\(name): " + ((try? String(contentsOf: data.appendingPathComponent(name), encoding: .utf8)) ?? "(none)")
        }
        return (["market: " + market] + files).joined(separator: "\n")
    }

    static func eventually(seconds: Int = 60, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while ContinuousClock.now < deadline {
            if (try? await condition()) == true { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    /// The `http://…` that follows `prefix` in `line`.
    static func url(after prefix: String, in line: String) -> String? {
        guard let range = line.range(of: prefix) else { return nil }
        let url = line[range.upperBound...].prefix { !$0.isWhitespace && $0 != "," }
        return url.hasPrefix("http://") ? String(url) : nil
    }

    /// The transaction id of the market's "Purchased PRODUCT: transaction N" line.
    static func transactionId(in text: String, product: String = "market.coins.10") -> String? {
        guard let range = text.range(of: "Purchased \(product): transaction ") else { return nil }
        return String(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// The key of `role` that `scripts/demo.sh` made (one `tally serve key` JSON object a line).
    static func key(_ file: URL, role: String) throws -> String {
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            if let entry = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
               entry["role"] as? String == role, let key = entry["key"] as? String { return key }
        }
        throw CLITestError("no \(role) key in \(file.path)")
    }

    /// `GET /v1/customers/demo-user` with the secret key.
    static func customerRequest(_ api: String, _ secret: String) -> URLRequest {
        var request = URLRequest(url: URL(string: api + "/v1/customers/demo-user")!)
        request.setValue("Bearer \(secret)", forHTTPHeaderField: "Authorization")
        return request
    }

    /// The demo customer's coins on the server.
    static func coins(_ api: String, _ secret: String, _ session: URLSession) async throws -> Int? {
        let (data, _) = try await session.data(for: customerRequest(api, secret))
        let body = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return ((body?["customer"] as? [String: Any])?["balances"] as? [String: Any])?["coins"] as? Int ?? 0
    }

    /// The demo customer's answer as text (status and body, or the error), for a failure's message.
    static func customerText(_ api: String, _ secret: String, _ session: URLSession) async -> String {
        do {
            let (data, response) = try await session.data(for: customerRequest(api, secret))
            return "GET \((response as? HTTPURLResponse)?.statusCode ?? 0): \(String(decoding: data, as: UTF8.self))"
        } catch {
            return "GET failed: \(error)"
        }
    }

    /// The HTTP status of a GET, nil when nothing answers.
    static func status(of url: String, key: String? = nil) async throws -> Int? {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 3
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: URL(string: url)!)
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        do {
            let (_, response) = try await session.data(for: request)
            return (response as? HTTPURLResponse)?.statusCode
        } catch {
            return nil
        }
    }
}
