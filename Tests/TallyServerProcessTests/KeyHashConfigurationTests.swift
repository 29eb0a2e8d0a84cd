import Foundation
import Testing

extension ServerProcessTests {
    /// One key listed twice (whatever the roles, names or hex case) is a configuration error.
    @Suite struct KeyHashConfiguration {
        static let cases: [(String, @Sendable (ServerKeys) -> [[String: Any]])] = [
            ("the public key's hash again as a secret key", { keys in
                keys.configurationEntries + [["name": "admin", "role": "secret",
                                              "sha256": ServerKeys.sha256Hex(keys.publicKey)]]
            }),
            ("the secret key's hash again in upper case, same role", { keys in
                keys.configurationEntries + [["name": "backend-2", "role": "secret",
                                              "sha256": ServerKeys.sha256Hex(keys.secretKey).uppercased()]]
            }),
        ]

        @Test(arguments: 0..<cases.count)
        func theSameKeyHashTwiceExits2NamingItsPath(_ index: Int) async throws {
            let (what, entries) = Self.cases[index]
            let fixture = try ServerFixture()
            try fixture.server.killNow()
            var document = try fixture.configurationDocument()
            document["keys"] = entries(fixture.keys)
            let broken = fixture.directory.appendingPathComponent("broken.json")
            try JSONSerialization.data(withJSONObject: document).write(to: broken)
            let exit = try ServerProcess.runToExit(data: fixture.dataDirectory, config: broken)
            #expect(exit.status == 2, "\(what): exit \(exit.status), stderr: \(exit.stderr)")
            let expected = index == 0 ? "keys[0].sha256" : "keys[1].sha256"
            #expect(exit.stderr.contains("keys[\(fixture.keys.configurationEntries.count)].sha256") && exit.stderr.contains(expected),
                    "\(what): stderr must name both entries: \(exit.stderr)")
        }
    }

    /// Spend ids are at most 256 bytes of UTF-8.
    @Suite struct SpendIdLength {
        @Test func aSpendIdOver256BytesIs400SpendIdTooLong() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let client = fixture.client
            let (_, coins) = try market.buySigned("market.coins.100", account: "ann")
            #expect(try await client.postTransaction(coins, for: "ann").status == 200)
            // 128 two-byte characters are 256 bytes: allowed; one byte more is not.
            let longest = String(repeating: "é", count: 128)
            let accepted = try await client.spend(1, id: longest, for: "ann")
            #expect(accepted.status == 200, "\(accepted)")
            for tooLong in [longest + "x", String(repeating: "x", count: 257), String(repeating: "€", count: 86)] {
                let refused = try await client.spend(1, id: tooLong, for: "ann")
                #expect(refused.status == 400 && refused.errorCode == "spend_id_too_long",
                        "\(tooLong.utf8.count) bytes: \(refused)")
            }
            #expect(JSONFields.balance(try await client.customer("ann")) == 99, "only the 256-byte id was spent")
        }
    }
}
