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
}
