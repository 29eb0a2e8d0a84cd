import Foundation
import Testing

extension ServerProcessTests {
    /// `customers.requireToken` through a real `tally serve`: the public key alone no longer reads or writes a
    /// customer; a token from the app's backend (here `tally serve customer-token`) for that very customer does.
    @Suite struct CustomerTokens {
        /// A server requiring tokens checked with a new HS256 secret made by `tally serve customer-token --new-secret`.
        func fixture(requireToken: Bool = true) throws -> ServerFixture {
            let fixture = try ServerFixture()
            let secret = fixture.directory.appendingPathComponent("customer-token.secret")
            let made = try runCommand(TestPaths.tally.path, ["serve", "customer-token", "--new-secret", secret.path])
            try #require(made.status == 0, "\(made.output)")
            let mode = try FileManager.default.attributesOfItem(atPath: secret.path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "the secret file is the owner's only")
            try fixture.reconfigure {
                $0["customers"] = ["requireToken": requireToken,
                                   "tokenKeys": [["id": "backend-1", "alg": "HS256", "secretFile": secret.lastPathComponent]]]
            }
            return fixture
        }

        func token(_ fixture: ServerFixture, for user: String, seconds: Int = 600) throws -> String {
            let made = try runCommand(TestPaths.tally.path, ["serve", "customer-token", "--config", fixture.configFile.path,
                                                             "--user", user, "--seconds", String(seconds)])
            try #require(made.status == 0, "\(made.output)")
            return made.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func get(_ fixture: ServerFixture, _ user: String, token: String? = nil) async throws -> HTTPReply {
            try await fixture.client.send("GET", APIClient.customerPath(user), key: fixture.keys.publicKey,
                                          headers: token.map { ["Tally-Customer-Token": $0] } ?? [:])
        }

        /// Offerings are not private: no token is needed even with `requireToken`; one sent must be the customer's.
        @Test func offeringsNeedNoTokenButOneSentMustSpeakForTheCustomerAsked() async throws {
            let fixture = try fixture()
            #expect(try await fixture.client.offerings(["appUserId": "alice@example.com"]).status == 200)
            let alice = try token(fixture, for: "alice@example.com")
            let own = try await fixture.client.offerings(["appUserId": "alice@example.com"],
                                                         headers: ["Tally-Customer-Token": alice])
            #expect(own.status == 200, "\(own)")
            let other = try await fixture.client.offerings(["appUserId": "bob@example.com"],
                                                           headers: ["Tally-Customer-Token": alice])
            #expect(other.status == 403 && other.errorCode == "customer_token_mismatch", "\(other)")
            let none = try await fixture.client.offerings([:], headers: ["Tally-Customer-Token": alice])
            #expect(none.status == 400, "a token without the appUserId it speaks for: \(none)")
            let forged = try await fixture.client.offerings(["appUserId": "alice@example.com"],
                                                            headers: ["Tally-Customer-Token": alice + "x"])
            #expect(forged.status == 401 && forged.errorCode == "invalid_customer_token", "\(forged)")
        }

        @Test func thePublicKeyAloneNoLongerReadsOrWritesACustomer() async throws {
            let fixture = try fixture()
            var market = try fixture.market()
            let jws = try market.buySigned("market.coins.10", account: "alice").1
            let bare = try await get(fixture, "alice@example.com")
            #expect(bare.status == 401 && bare.errorCode == "customer_token_required", "\(bare)")
            let post = try await fixture.client.postTransaction(jws, for: "alice@example.com")
            #expect(post.status == 401 && post.errorCode == "customer_token_required", "\(post)")

            let alice = try token(fixture, for: "alice@example.com")
            let posted = try await fixture.client.send(
                "POST", APIClient.customerPath("alice@example.com") + "/transactions", key: fixture.keys.publicKey,
                body: try APIClient.json(["signedTransaction": jws]), headers: ["Tally-Customer-Token": alice])
            #expect(posted.status == 200, "\(posted)")
            let read = try await get(fixture, "alice@example.com", token: alice)
            #expect(read.status == 200)
            #expect(JSONFields.balance(try read.customer()) == 10, "\(read)")

            // Alice's token does not open Bob's account, nor a look-alike of hers (bytes compared).
            let other = try await get(fixture, "bob@example.com", token: alice)
            #expect(other.status == 403 && other.errorCode == "customer_token_mismatch", "\(other)")
            let lookAlike = try await get(fixture, "alice@example.com ", token: alice)
            #expect(lookAlike.status == 403, "\(lookAlike)")
            // The secret key (the app's backend) needs no customer token.
            let backend = try await fixture.client.send("GET", APIClient.customerPath("alice@example.com"),
                                                        key: fixture.keys.secretKey)
            #expect(backend.status == 200, "\(backend)")
        }

        @Test func forgedExpiredAndTamperedTokensAreRefused() async throws {
            let fixture = try fixture()
            let alice = try token(fixture, for: "alice", seconds: 600)
            var parts = alice.split(separator: ".").map(String.init)
            let forgedClaims = Data(#"{"sub":"alice","aud":"tally","exp":4102444800}"#.utf8).base64EncodedString()
                .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
            parts[1] = forgedClaims
            let noneAlg = Data(#"{"alg":"none"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                + "." + forgedClaims + "."
            for (name, bad) in [("tampered", parts.joined(separator: ".")), ("alg none", noneAlg), ("garbage", "x.y.z"),
                                ("huge", String(repeating: "a", count: 9_000))] {
                let reply = try await get(fixture, "alice", token: bad)
                #expect(reply.status == 401 && reply.errorCode == "invalid_customer_token", "\(name): \(reply)")
            }
            let tooLong = try runCommand(TestPaths.tally.path, ["serve", "customer-token", "--config", fixture.configFile.path,
                                                                "--user", "alice", "--seconds", "999999"])
            #expect(tooLong.status == 2, "the CLI refuses a lifetime past customers.maximumTokenSeconds")
        }

        @Test func anonymousCustomersNeedNoToken() async throws {
            let fixture = try fixture()
            let anonymous = "$tally:anon:" + String(repeating: "0123456789abcdef", count: 2)
            #expect(try await get(fixture, anonymous).status == 200)
            for notAnonymous in ["$tally:anon:" + String(repeating: "A", count: 32), "$tally:anon:1234", "$tally:anon:"] {
                #expect(try await get(fixture, notAnonymous).status == 401, "\(notAnonymous)")
            }
        }

        @Test func withoutRequireTokenAPresentTokenIsStillChecked() async throws {
            let fixture = try fixture(requireToken: false)
            #expect(try await get(fixture, "carol").status == 200, "no token, none required")
            #expect(try await get(fixture, "carol", token: "x.y.z").status == 401, "a bad token is refused")
            #expect(try await get(fixture, "carol", token: try token(fixture, for: "dave")).status == 403)
            #expect(try await get(fixture, "carol", token: try token(fixture, for: "carol")).status == 200)
        }

        @Test func aConfigurationRequiringTokensWithoutKeysIsRefused() throws {
            let fixture = try ServerFixture()
            var document = try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.configFile)) as? [String: Any] ?? [:]
            document["customers"] = ["requireToken": true]
            let file = fixture.directory.appendingPathComponent("bad.json")
            try JSONSerialization.data(withJSONObject: document).write(to: file)
            let checked = try runCommand(TestPaths.tally.path, ["serve", "customer-token", "--config", file.path, "--user", "a"])
            #expect(checked.status == 2 && checked.output.contains("customers.tokenKeys"), "\(checked.output)")
        }
    }
}
