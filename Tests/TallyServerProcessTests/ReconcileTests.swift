import Foundation
import Testing
import TallySandbox

extension ServerProcessTests {
    /// A real `tally serve` reconciles a customer through a real `tally sandbox serve` playing the App Store
    /// Server API: renewals and refunds the app never posted arrive, each once.
    @Suite struct Reconcile {
        /// A sandbox directory signing with `authority`, served by `tally sandbox serve`.
        final class AppStore {
            let directory: URL
            let serve = Process()
            var baseURL = ""
            var keyId = "", issuerId = "", keyPath = ""

            init(in folder: URL, authority: SandboxCertificateAuthority, start: Date) throws {
                directory = folder.appendingPathComponent("appstore")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try authority.write(to: directory)
                let storeKit = TestPaths.market.appendingPathComponent("Market.storekit").path
                try tally(["init", "--config", storeKit, "--start", ISO8601DateFormatter().string(from: start)])
            }

            deinit {
                if serve.isRunning {
                    serve.terminate()
                    serve.waitUntilExit()
                }
            }

            @discardableResult
            func tally(_ arguments: [String]) throws -> String {
                let result = try runCommand(TestPaths.tally.path, ["sandbox"] + arguments + ["--data", directory.path])
                guard result.status == 0 else { throw HarnessError("tally sandbox \(arguments): \(result.output)") }
                return result.output
            }

            func transactions() throws -> [[String: Any]] {
                let object = try JSONSerialization.jsonObject(with: Data(try tally(["history", "--json"]).utf8)) as? [String: Any]
                return (object?["transactions"] as? [[String: Any]]) ?? []
            }

            /// Reads the sandbox's in-app purchase key (``configuration`` names it).
            func loadKey() throws {
                let key = try JSONSerialization.jsonObject(with: Data(try tally(["api-key", "--json"]).utf8)) as? [String: Any]
                keyId = key?["keyId"] as? String ?? ""
                issuerId = key?["issuerId"] as? String ?? ""
                keyPath = key?["privateKeyPath"] as? String ?? ""
            }

            func start(_ options: [String] = []) throws {
                try loadKey()
                serve.executableURL = TestPaths.tally
                serve.arguments = ["sandbox", "serve", "--listen", "127.0.0.1:0", "--data", directory.path] + options
                let output = Pipe()
                serve.standardOutput = output
                try serve.run()
                var text = ""
                let deadline = Date().addingTimeInterval(20)
                while !text.contains("\n"), Date() < deadline {
                    text += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
                }
                guard let from = text.range(of: "http://"), let to = text.range(of: "/inApps") else {
                    throw HarnessError("tally sandbox serve printed no address: \(text)")
                }
                baseURL = String(text[from.lowerBound..<to.lowerBound])
            }

            var configuration: [String: Any] {
                ["issuerId": issuerId, "keyId": keyId, "privateKey": keyPath, "environment": "Sandbox", "baseURL": baseURL]
            }
        }

        private func reconcile(_ fixture: ServerFixture, _ customer: String, key: String? = nil) async throws -> HTTPReply {
            try await fixture.client.send("POST", APIClient.customerPath(customer) + "/reconcile",
                                          key: key ?? fixture.keys.secretKey)
        }

        private static func counts(_ reply: HTTPReply) throws -> [String: Any] {
            try reply.json()["reconciled"] as? [String: Any] ?? [:]
        }

        @Test(arguments: ServerFixture.testedStores)
        func renewalsAndARefundTheAppNeverPostedArriveByReconciliationEachOnce(_ store: String) async throws {
            let fixture = try ServerFixture.on(store)
            // A week of free trial, then monthly: three renewals by start + 3M, the last one in force now.
            let start = Date().addingTimeInterval(-95 * 86_400)
            let appStore = try AppStore(in: fixture.directory, authority: fixture.authority, start: start)
            try appStore.tally(["buy", "market.pro.monthly"])
            let first = try #require(try appStore.transactions().first)
            let jws = try #require(first["signedTransactionInfo"] as? String)
            #expect(try await fixture.client.postTransaction(jws, for: "alice").status == 200)
            #expect(!JSONFields.features(try await fixture.client.customer("alice")).contains("pro"),
                    "the first month ended long ago and the app posted nothing since")
            try appStore.tally(["advance", "3M"])
            try appStore.start(["--rate-limit", "2"])
            try fixture.reconfigure { $0["appStoreServerAPI"] = appStore.configuration }

            let refused = try await reconcile(fixture, "alice", key: fixture.keys.publicKey)
            #expect(refused.status == 403, "reconcile needs the secret key: \(refused)")
            let reply = try await reconcile(fixture, "alice")
            #expect(reply.status == 200, "\(reply)")
            let counts = try Self.counts(reply)
            #expect(counts["inserted"] as? Int == 3, "three renewals: \(counts)")
            #expect(counts["renewalInfosUpdated"] as? Int == 1, "\(counts)")
            let state = try await fixture.client.customer("alice")
            let history = try await fixture.client.history("alice")
            #expect(JSONFields.features(state).contains("pro"), "\(state) \(history)")
            let subscription = (state["subscriptions"] as? [[String: Any]])?.first
            #expect(subscription?["status"] as? String == "subscribed" && subscription?["willRenew"] as? Bool == true)
            #expect(JSONFields.transactionIds(try await fixture.client.history("alice")).count == 4)

            let again = try Self.counts(try await reconcile(fixture, "alice"))
            #expect(again["inserted"] as? Int == 0 && again["updated"] as? Int == 0, "nothing twice: \(again)")
            #expect(again["pages"] as? Int == 1, "from the stored revision: \(again)")

            let latest = try #require(try appStore.transactions().last?["transaction"] as? [String: Any])
            try appStore.tally(["refund", try #require(latest["transactionId"] as? String)])
            let refunded = try Self.counts(try await reconcile(fixture, "alice"))
            #expect(refunded["updated"] as? Int == 1, "the refunded copy: \(refunded)")
            #expect(!JSONFields.features(try await fixture.client.customer("alice")).contains("pro"))
        }

        /// Get Transaction History answers for the whole Apple account, which two customers of the app share:
        /// reconciling X files X's own unposted purchase, and leaves Y's (Y's own `appAccountToken`, not posted
        /// yet) for Y, whose post is then credited to Y.
        @Test(arguments: ServerFixture.testedStores)
        func reconcileLeavesAPurchaseCarryingAnotherCustomersTokenForThatCustomer(_ store: String) async throws {
            let fixture = try ServerFixture.on(store)
            let appStore = try AppStore(in: fixture.directory, authority: fixture.authority, start: Date().addingTimeInterval(-60))
            // Each customer's token as the server minted it (the only tokens that name a customer).
            let xavier = try await fixture.client.accountToken("xavier").lowercased()
            let yara = try await fixture.client.accountToken("yara").lowercased()
            func bought(_ token: String) throws -> String {
                try appStore.tally(["buy", "market.coins.100", "--app-account-token", token])
                let last = try #require(try appStore.transactions().last)
                let transaction = try #require(last["transaction"] as? [String: Any])
                #expect((transaction["appAccountToken"] as? String)?.lowercased() == token)
                return try #require(last["signedTransactionInfo"] as? String)
            }
            let xaviersFirst = try bought(xavier)
            #expect(try await fixture.client.postTransaction(xaviersFirst, for: "xavier").status == 200)
            let yarasCoins = try bought(yara)          // on the same Apple account, with Yara's token, not posted
            _ = try bought(xavier)                     // Xavier's second pack, never posted by his app
            try appStore.start()
            try fixture.reconfigure { $0["appStoreServerAPI"] = appStore.configuration }

            let reply = try await reconcile(fixture, "xavier")
            #expect(reply.status == 200, "\(reply)")
            let counts = try Self.counts(reply)
            #expect(counts["inserted"] as? Int == 1 && counts["pending"] as? Int == 1,
                    "Xavier's second pack filed, Yara's left for her: \(counts)")
            #expect(JSONFields.balance(try await fixture.client.customer("xavier")) == 200)

            let yarasPost = try await fixture.client.postTransaction(yarasCoins, for: "yara")
            #expect(yarasPost.status == 200, "Yara's own purchase is hers: \(yarasPost)")
            #expect(JSONFields.balance(try await fixture.client.customer("yara")) == 100)
            #expect(JSONFields.balance(try await fixture.client.customer("xavier")) == 200, "Xavier got none of Yara's coins")
        }

        @Test func withoutConfigurationOrTransactionsReconcileSaysWhy() async throws {
            let fixture = try ServerFixture()
            let unconfigured = try await reconcile(fixture, "nobody")
            #expect(unconfigured.status == 409 && unconfigured.errorCode == "not_configured", "\(unconfigured)")
            let appStore = try AppStore(in: fixture.directory, authority: fixture.authority, start: Date())
            try appStore.start()
            try fixture.reconfigure { $0["appStoreServerAPI"] = appStore.configuration }
            let empty = try await reconcile(fixture, "nobody")
            #expect(empty.status == 409 && empty.errorCode == "nothing_to_reconcile", "\(empty)")
        }

        @Test(arguments: ServerFixture.testedStores)
        func theCommandLineReconcilesOverTheDataDirectory(_ store: String) async throws {
            let fixture = try ServerFixture.on(store)
            let appStore = try AppStore(in: fixture.directory, authority: fixture.authority,
                                        start: Date().addingTimeInterval(-35 * 86_400))  // the trial week, then one renewal in force now
            try appStore.tally(["buy", "market.pro.monthly"])
            let jws = try #require(try appStore.transactions().first?["signedTransactionInfo"] as? String)
            #expect(try await fixture.client.postTransaction(jws, for: "bob").status == 200)
            try appStore.tally(["advance", "1M"])
            try appStore.start()
            var document = try fixture.configurationDocument()
            document["appStoreServerAPI"] = appStore.configuration
            try JSONSerialization.data(withJSONObject: document).write(to: fixture.configFile)
            try fixture.server.killNow()
            let result = try runCommand(TestPaths.tally.path, ["serve", "reconcile", "--data", fixture.dataDirectory.path,
                                                                "--config", fixture.configFile.path, "--customer", "bob", "--json"],
                                        environment: fixture.environment)
            #expect(result.status == 0, "\(result.output)")
            let summary = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
            #expect(summary?["inserted"] as? Int == 1, "\(result.output)")
            try fixture.restart()
            #expect(JSONFields.features(try await fixture.client.customer("bob")).contains("pro"))
        }

        @Test func theServerCanFollowTheSandboxClockForTests() async throws {
            let fixture = try ServerFixture()
            let appStore = try AppStore(in: fixture.directory, authority: fixture.authority, start: Date())
            try appStore.tally(["buy", "market.pro.monthly"])
            try appStore.tally(["advance", "2M"])
            let latest = try #require(try appStore.transactions().last?["signedTransactionInfo"] as? String)
            let early = try await fixture.client.postTransaction(latest, for: "carol")
            #expect((try early.json()["transaction"] as? [String: Any])?["outcome"] as? String == "future",
                    "on the wall clock the renewal has not started: \(early)")
            try appStore.start()
            try fixture.reconfigure { $0["clock"] = ["sandboxURL": appStore.baseURL] }
            #expect(fixture.server.stderr.text.contains("warning: the clock follows the sandbox"))
            let state = try await fixture.client.customer("carol")
            #expect(JSONFields.features(state).contains("pro"), "on the sandbox's clock it is in force: \(state)")
            try appStore.tally(["advance", "2M"])       // past the end of the one period the server knows
            try await Task.sleep(for: .seconds(1.2))      // the clock is read again every half second
            let renewed = try await fixture.client.customer("carol")
            #expect(!JSONFields.features(renewed).contains("pro"),
                    "two months later on the sandbox clock, the posted period has ended: \(renewed)")
        }
    }
}
