import Foundation
import Testing

@Suite("tally verify: the sandbox's signed transactions verify against its root")
struct VerifyCLITests {
    @Test func historyJWSVerifiesWithTheSandboxRootAndTamperingFails() throws {
        let store = try MarketSandbox()
        #expect(try store.run("buy", "market.premium").status == 0)
        #expect(try store.run("buy", "market.pro.monthly").status == 0)
        let root = store.directory.appendingPathComponent("root-for-test.pem")
        try Data(try store.run("root").stdout.utf8).write(to: root)
        let history = try store.run("history", "--json").json()
        let items = try #require(history["transactions"] as? [[String: Any]])
        let renewals = try #require(history["renewalInfos"] as? [[String: Any]])
        let tokens = items.compactMap { $0["signedTransactionInfo"] as? String }
            + renewals.compactMap { $0["signedRenewalInfo"] as? String }
        #expect(tokens.count == 3)

        let verified = try TallyProcess.run(
            ["verify", "--root", root.path, "--environment", "sandbox", "--bundle-id", "com.example.market",
             "--lines", "-"], input: tokens.joined(separator: "\n") + "\n")
        #expect(verified.status == 0)
        let lines = verified.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        for line in lines {
            let result = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(result["valid"] as? Bool == true)
        }

        var tampered = Array(tokens[0].utf8)
        let middle = tampered.count / 2
        tampered[middle] = tampered[middle] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let rejected = try TallyProcess.run(
            ["verify", "--root", root.path, "--environment", "sandbox", "--bundle-id", "com.example.market", "-"],
            input: String(decoding: tampered, as: UTF8.self))
        #expect(rejected.status == 1)
        #expect(try rejected.json()["valid"] as? Bool == false)

        let wrongApp = try TallyProcess.run(
            ["verify", "--root", root.path, "--environment", "sandbox", "--bundle-id", "com.example.other", "-"],
            input: tokens[0])
        #expect(wrongApp.status == 1)
        #expect(try wrongApp.json()["reason"] as? String == "INVALID_APP_IDENTIFIER")
    }

    @Test func badOptionsAreUsageErrors() throws {
        #expect(try TallyProcess.run(["verify", "--environment", "moon", "-"], input: "x").status == 2)
        #expect(try TallyProcess.run(["verify", "/no/such/file"]).status == 2)
        #expect(try TallyProcess.run(["nonsense"]).status == 2)
        #expect(try TallyProcess.run(["help"]).status == 0)
    }

    /// `../shared/vectors/<path>` from the package root (a worktree may sit one level deeper).
    static func sharedVector(_ path: String) throws -> URL {
        var directory = TallyProcess.packageRoot.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("shared/vectors").appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw CLITestError("shared vector \(path) not found")
    }

    @Test func aReceiptNeedsNoAppAppleIdInProduction() throws {
        let receipt = try Self.sharedVector(
            "apple-real/receipts/receipt_Production_org.getpure.pure-iphone_2024-02-23_cc209380.b64")
        for kind in [["--kind", "receipt"], []] {
            let result = try TallyProcess.run(["verify"] + kind + ["--environment", "production", receipt.path])
            #expect(result.status == 0, "\(kind): \(result.stderr)")
            let answer = try result.json()
            #expect(answer["valid"] as? Bool == true)
            #expect(answer["kind"] as? String == "receipt")
            let text = try String(contentsOf: receipt, encoding: .utf8)
            let lines = try TallyProcess.run(["verify"] + kind + ["--lines", "-"], input: text + "\n" + text)
            #expect(lines.status == 0, "\(lines.stderr)")
            #expect(lines.stdout.split(separator: "\n").count == 2)
        }
        // A JWS in Production still needs --app-apple-id: a usage error, whether its kind is given or detected.
        let jws = try String(contentsOf: try Self.sharedVector("apple-server-library/python/tests/resources/mock_signed_data/testNotification"),
                             encoding: .utf8)
        #expect(try TallyProcess.run(["verify", "--kind", "notification", "-"], input: jws).status == 2)
        let detected = try TallyProcess.run(["verify", "-"], input: jws)
        #expect(detected.status == 2)
        #expect(detected.stderr.contains("--app-apple-id"))
    }

    @Test(arguments: [
        ("transactionInfo", "transaction", "com.example", ["productId", "purchaseDate", "transactionId", "type"]),
        ("renewalInfo", "renewal", nil, ["originalTransactionId"]),
    ] as [(String, String, String?, [String])])
    func applesSparsePayloadsVerifyWithMissingFieldsAsNull(
        _ file: String, _ kind: String, _ bundleId: String?, _ missing: [String]
    ) throws {
        let resources = try Self.sharedVector("apple-server-library/python/tests/resources")
        let jws = resources.appendingPathComponent("mock_signed_data/\(file)")
        let root = resources.appendingPathComponent("certs/testCA.der")
        let bundle = bundleId.map { ["--bundle-id", $0] } ?? []
        let result = try TallyProcess.run(
            ["verify", "--root", root.path, "--environment", "sandbox", "--kind", kind] + bundle + [jws.path])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let answer = try result.json()
        #expect(answer["valid"] as? Bool == true)
        #expect(answer["kind"] as? String == kind)
        let payload = try #require(answer["payload"] as? [String: Any])
        #expect(payload["environment"] as? String == "Sandbox")
        #expect((payload["signedDate"] as? NSNumber)?.int64Value == 1_672_956_154_000)
        for field in missing {
            #expect(payload[field] is NSNull, "\(field) should be null: \(payload)")
        }
        // --lines gives the same verdict, and the payload's checks still apply.
        let text = try String(contentsOf: jws, encoding: .utf8)
        let lines = try TallyProcess.run(
            ["verify", "--root", root.path, "--environment", "sandbox", "--kind", kind, "--lines", "-"] + bundle,
            input: text)
        #expect(lines.status == 0)
        #expect(try lines.json()["valid"] as? Bool == true)
        let production = try TallyProcess.run(
            ["verify", "--root", root.path, "--environment", "production", "--app-apple-id", "1234", "--kind", kind,
             jws.path])
        #expect(production.status == 1)
        #expect(try production.json()["reason"] as? String == "INVALID_ENVIRONMENT")
    }

    @Test func linesKeepsOrderSkipsBlankLinesAndAnswersEveryLine() throws {
        let resources = try Self.sharedVector("apple-server-library/python/tests/resources")
        let root = resources.appendingPathComponent("certs/testCA.der")
        let notification = try String(
            contentsOf: resources.appendingPathComponent("mock_signed_data/testNotification"), encoding: .utf8)
        // CRLF, blank and space-only lines, a line that is no JWS, bytes that are not UTF-8 (replaced with U+FFFD on
        // the way in), and a last line without a line feed.
        var input = Array((notification + "\r\n\n   \t\r\nnot.a.jws\n").utf8)
        input += [0xFF, 0xFE, UInt8(ascii: "\n")]
        input += Array(notification.utf8)
        let process = try TallyProcess.run(
            ["verify", "--root", root.path, "--environment", "sandbox", "--bundle-id", "com.example", "--lines", "-"],
            input: String(decoding: input, as: UTF8.self))
        #expect(process.status == 0, "\(process.stderr)")
        let answers = try process.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(answers.map { $0["valid"] as? Bool } == [true, false, false, true])
        #expect(answers.first?["kind"] as? String == "notification")
    }
}
