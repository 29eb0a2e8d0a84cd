import Foundation
import Testing

extension ServerProcessTests {
    /// A bad configuration stops `tally serve` before it listens: exit 2, the problem on stderr.
    @Suite struct Configuration {
        static let broken: [(String, String, @Sendable (inout [String: Any]) -> Void)] = [
            ("an unknown key", "listn", { $0["listn"] = "127.0.0.1:1" }),
            ("an unknown ownership", "ownership", { $0["ownership"] = "share" }),
            ("no keys", "keys", { $0["keys"] = [[String: Any]]() }),
            ("a key hash that is not hex", "sha256", {
                $0["keys"] = [["name": "x", "role": "secret", "sha256": "not-hex"]]
            }),
            ("a missing catalog", "Missing.storekit", { $0["storekit"] = "Missing.storekit" }),
            ("Production without appAppleId", "appAppleId", {
                $0["verification"] = ["environments": ["Production"], "roots": ["sandbox-root.pem"]]
            }),
            ("a root file that is not a certificate", "tally.json", {
                $0["verification"] = ["environments": ["Sandbox"], "roots": ["tally.json"]]
            }),
        ]

        @Test(arguments: 0..<broken.count)
        func aBadConfigurationExits2NamingTheProblem(_ index: Int) async throws {
            let (what, named, change) = Self.broken[index]
            let fixture = try ServerFixture()
            try fixture.server.killNow()
            var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.configFile))
                                        as? [String: Any])
            change(&document)
            let broken = fixture.directory.appendingPathComponent("broken.json")
            try JSONSerialization.data(withJSONObject: document).write(to: broken)
            let exit = try ServerProcess.runToExit(data: fixture.dataDirectory, config: broken)
            #expect(exit.status == 2, "\(what): exit \(exit.status), stderr: \(exit.stderr)")
            #expect(exit.stderr.contains(named), "\(what): stderr does not name '\(named)': \(exit.stderr)")
        }
    }
}
