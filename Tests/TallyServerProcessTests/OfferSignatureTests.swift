import Foundation
import Testing
import TallySandbox

extension ServerProcessTests {
    /// A real `tally serve` signs promotional offers (V1 and V2) and introductory offer eligibility with the
    /// configured in-app purchase key; `offer_signatures.py` verifies them with the documented algorithm and PyJWT.
    @Suite struct OfferSignatures {
        static let bundleId = "com.example.market", keyId = "OFFERKEY01", issuerId = "57246542-96fe-1a63-e053-0824d011072a"

        /// A server whose catalog gives `market.pro.monthly` the promotional offers `winback_50`, `loyal_30` and
        /// `lapsed_20`, with `offers.promotional` listing `winback_50` and `lapsed_20` (`onlyLapsed`); `configured: false` leaves out `appStoreServerAPI`.
        /// `postgres`: on a new database of the cluster (`store.kind: "postgres"`) instead of SQLite. `customerTokens`:
        /// customer tokens checked with a new HS256 secret (`customers.tokenKeys`), `winback_50` and `once_10` listed
        /// with `customerToken: true`, and `offers.introductoryEligibility.customerToken` on.
        static func server(configured: Bool = true, postgres: PostgresCluster? = nil, customerTokens: Bool = false) throws
            -> (ServerFixture, keyPath: String)
        {
            var options = ServerOptions()
            var environment: [String: String] = [:]
            if let postgres {
                options.postgresURLEnv = ServerPair.urlVariable
                environment[ServerPair.urlVariable] = try postgres.createDatabase()
            }
            let fixture = try ServerFixture(options, environment: environment)
            let keyPath = fixture.directory.appendingPathComponent("offer-key.p8").path
            let keygen = try BrowserTools.runScript("offer_signatures.py", ["keygen", keyPath])
            guard keygen.status == 0 else { throw HarnessError("keygen: \(keygen.output)") }
            let storeKitURL = fixture.directory.appendingPathComponent("Market.storekit")
            var storeKit = try JSONSerialization.jsonObject(with: Data(contentsOf: storeKitURL)) as? [String: Any] ?? [:]
            var groups = storeKit["subscriptionGroups"] as? [[String: Any]] ?? []
            var subscriptions = groups[0]["subscriptions"] as? [[String: Any]] ?? []
            subscriptions[0]["adHocOffers"] = ["winback_50", "loyal_30", "lapsed_20", "once_10"].enumerated().map { index, id in
                ["internalID": "6E1A009\(index)", "offerID": id, "paymentMode": "payUpFront", "subscriptionPeriod": "P1M",
                 "numberOfPeriods": 1, "displayPrice": "0.99", "referenceName": id] as [String: Any]
            }
            groups[0]["subscriptions"] = subscriptions
            storeKit["subscriptionGroups"] = groups
            try JSONSerialization.data(withJSONObject: storeKit).write(to: storeKitURL)
            let secret = fixture.directory.appendingPathComponent("customer-token.secret")
            if customerTokens {
                let made = try runCommand(TestPaths.tally.path, ["serve", "customer-token", "--new-secret", secret.path])
                guard made.status == 0 else { throw HarnessError("customer-token --new-secret: \(made.output)") }
            }
            try fixture.reconfigure { document in
                var offers: [String: Any] = ["promotional": [
                    ["offerIdentifier": "winback_50", "customerToken": customerTokens] as [String: Any],
                    ["offerIdentifier": "lapsed_20", "onlyLapsed": true] as [String: Any],
                    ["offerIdentifier": "once_10", "perCustomer": 1, "customerToken": customerTokens] as [String: Any]]]
                if customerTokens {
                    offers["introductoryEligibility"] = ["customerToken": true]
                    document["customers"] = ["tokenKeys": [["alg": "HS256", "secretFile": secret.lastPathComponent]]]
                }
                document["offers"] = offers
                if configured {
                    document["appStoreServerAPI"] = ["issuerId": issuerId, "keyId": keyId, "privateKey": keyPath,
                                                     "environment": "Sandbox"]
                }
            }
            return (fixture, keyPath)
        }

        static func post(_ fixture: ServerFixture, _ path: String, _ body: [String: Any], key: String? = nil,
                         customerToken: String? = nil) async throws -> HTTPReply
        {
            try await fixture.client.send("POST", path, key: key ?? fixture.keys.secretKey,
                                          body: try JSONSerialization.data(withJSONObject: body),
                                          headers: customerToken.map { ["Tally-Customer-Token": $0] } ?? [:])
        }

        /// Runs the verifier on `reply`'s body; its exit status and output.
        static func verify(_ fixture: ServerFixture, _ mode: String, _ arguments: [String], _ reply: HTTPReply)
            throws -> (status: Int32, output: String)
        {
            let answer = fixture.directory.appendingPathComponent("answer-\(UUID().uuidString).json")
            try Data(reply.body).write(to: answer)
            return try BrowserTools.runScript("offer_signatures.py", [mode] + arguments + [answer.path])
        }

        @Test func promotionalSignaturesVerifyWithTheDocumentedStringAndAppleClaims() async throws {
            let (fixture, keyPath) = try Self.server()
            let token = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
            let reply = try await Self.post(fixture, "/v1/offers/promotional/signature",
                                            ["productId": "market.pro.monthly", "offerIdentifier": "winback_50",
                                             "appAccountToken": token, "transactionId": "2000000123456789"])
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.header("Cache-Control") == "no-store", "a signature is kept by no cache")
            let checked = try Self.verify(fixture, "promotional", [keyPath, Self.bundleId, Self.keyId, Self.issuerId,
                                                                   "market.pro.monthly", "winback_50", token, "2000000123456789"], reply)
            #expect(checked.status == 0, "\(checked.output)")

            let bare = try await Self.post(fixture, "/v1/offers/promotional/signature",
                                           ["productId": "market.pro.monthly", "offerIdentifier": "winback_50"])
            #expect(bare.status == 200, "\(bare)")
            let bareChecked = try Self.verify(fixture, "promotional", [keyPath, Self.bundleId, Self.keyId, Self.issuerId,
                                                                       "market.pro.monthly", "winback_50", "-", "-"], bare)
            #expect(bareChecked.status == 0, "\(bareChecked.output)")
            let first = try bare.json()["v1"] as? [String: Any], second = try reply.json()["v1"] as? [String: Any]
            #expect(first?["nonce"] as? String != second?["nonce"] as? String, "each signature has a fresh nonce")
        }

        @Test func eligibilityFollowsTheStoredHistoryAndVerifies() async throws {
            let (fixture, keyPath) = try Self.server()
            var market = try fixture.market()
            let (pro, proJWS) = try market.buySigned("market.pro.monthly", account: "ann")
            #expect(try await fixture.client.postTransaction(proJWS, for: "ann").status == 200)

            let used = try await Self.post(fixture, "/v1/offers/introductory/eligibility",
                                           ["productId": "market.plus.monthly", "appUserId": "ann"])
            #expect(used.status == 200, "\(used)")
            let usedChecked = try Self.verify(fixture, "eligibility", [keyPath, Self.bundleId, Self.keyId, Self.issuerId,
                                                                       "market.plus.monthly", "false", pro.originalTransactionId], used)
            #expect(usedChecked.status == 0, "the free week ann had counts for the whole group: \(usedChecked.output)")

            let fresh = try await Self.post(fixture, "/v1/offers/introductory/eligibility",
                                            ["productId": "market.pro.monthly", "appUserId": "bob",
                                             "transactionId": "2000000000000042"])
            #expect(fresh.status == 200, "\(fresh)")
            let freshChecked = try Self.verify(fixture, "eligibility", [keyPath, Self.bundleId, Self.keyId, Self.issuerId,
                                                                        "market.pro.monthly", "true", "2000000000000042"], fresh)
            #expect(freshChecked.status == 0, "\(freshChecked.output)")

            let nothing = try await Self.post(fixture, "/v1/offers/introductory/eligibility",
                                              ["productId": "market.pro.monthly", "appUserId": "carol"])
            #expect(nothing.status == 400 && nothing.errorCode == "invalid_request", "\(nothing)")
        }

        @Test func anOnlyLapsedOfferIsSignedForALapsedCustomerOnly() async throws {
            let (fixture, _) = try Self.server()
            var market = try fixture.market(start: Date().addingTimeInterval(-40 * 86_400))
            let (_, lapsedJWS) = try market.buySigned("market.pro.monthly", account: "dan")
            #expect(try await fixture.client.postTransaction(lapsedJWS, for: "dan").status == 200)
            market.advance(by: SandboxDuration(40 * 86_400 - 120, .second))
            let (_, activeJWS) = try market.buySigned("market.pro.monthly", account: "ann")
            #expect(try await fixture.client.postTransaction(activeJWS, for: "ann").status == 200)
            let path = "/v1/offers/promotional/signature"
            func ask(_ customer: String?) async throws -> HTTPReply {
                var body: [String: Any] = ["productId": "market.pro.monthly", "offerIdentifier": "lapsed_20"]
                if let customer { body["appUserId"] = customer }
                return try await Self.post(fixture, path, body)
            }
            let dan = try await ask("dan")
            #expect(dan.status == 200, "dan's only subscription in the group expired a month ago: \(dan)")
            let ann = try await ask("ann")
            #expect(ann.status == 403 && ann.errorCode == "offer_not_eligible", "ann is subscribed: \(ann)")
            let bob = try await ask("bob")
            #expect(bob.status == 403 && bob.errorCode == "offer_not_eligible", "bob never subscribed: \(bob)")
            let nobody = try await ask(nil)
            #expect(nobody.status == 400 && nobody.errorCode == "invalid_request", "\(nobody)")
        }

        @Test func aPerCustomerLimitCountsSignaturesDurably() async throws {
            try await Self.checkPerCustomerLimit(try Self.server().0)
        }

        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func aPerCustomerLimitCountsSignaturesOnPostgreSQL() async throws {
            let cluster = try PostgresCluster.shared()
            try await Self.checkPerCustomerLimit(try Self.server(postgres: cluster).0)
        }

        /// `once_10` (`perCustomer: 1`): signed once for eve, refused the second time (also after a restart),
        /// signed for frank; 400 without `appUserId`.
        private static func checkPerCustomerLimit(_ fixture: ServerFixture) async throws {
            func ask(_ customer: String?) async throws -> HTTPReply {
                var body: [String: Any] = ["productId": "market.pro.monthly", "offerIdentifier": "once_10"]
                if let customer { body["appUserId"] = customer }
                return try await Self.post(fixture, "/v1/offers/promotional/signature", body)
            }
            let first = try await ask("eve")
            #expect(first.status == 200, "\(first)")
            #expect(try fixture.server.terminate() == 0)
            try fixture.restart()
            let again = try await ask("eve")
            #expect(again.status == 403 && again.errorCode == "offer_not_eligible", "the count survives a restart: \(again)")
            let other = try await ask("frank")
            #expect(other.status == 200, "the limit is per customer: \(other)")
            let nobody = try await ask(nil)
            #expect(nobody.status == 400 && nobody.errorCode == "invalid_request", "\(nobody)")
        }

        @Test func refusalsNameTheirCodes() async throws {
            let (fixture, _) = try Self.server()
            let path = "/v1/offers/promotional/signature"
            let publicKey = try await Self.post(fixture, path, ["productId": "market.pro.monthly", "offerIdentifier": "winback_50"],
                                                key: fixture.keys.publicKey)
            #expect(publicKey.status == 403 && publicKey.errorCode == "forbidden", "\(publicKey)")
            let eligibilityPublic = try await Self.post(fixture, "/v1/offers/introductory/eligibility",
                                                        ["productId": "market.pro.monthly", "appUserId": "ann"],
                                                        key: fixture.keys.publicKey)
            #expect(eligibilityPublic.status == 403 && eligibilityPublic.errorCode == "forbidden", "\(eligibilityPublic)")
            let unlisted = try await Self.post(fixture, path, ["productId": "market.pro.monthly", "offerIdentifier": "loyal_30"])
            #expect(unlisted.status == 403 && unlisted.errorCode == "offer_not_allowed", "\(unlisted)")
            for (product, offer) in [("market.premium", "winback_50"), ("market.nothing", "winback_50"),
                                     ("market.pro.yearly", "winback_50"), ("market.pro.monthly", "winback_5")] {
                let refused = try await Self.post(fixture, path, ["productId": product, "offerIdentifier": offer])
                #expect(refused.status == 422 && refused.errorCode == "invalid_offer", "\(product) \(offer): \(refused)")
            }
            let badToken = try await Self.post(fixture, path, ["productId": "market.pro.monthly", "offerIdentifier": "winback_50",
                                                               "appAccountToken": "not-a-uuid"])
            #expect(badToken.status == 400 && badToken.errorCode == "invalid_request", "\(badToken)")

            let (unconfigured, _) = try Self.server(configured: false)
            let missing = try await Self.post(unconfigured, path, ["productId": "market.pro.monthly", "offerIdentifier": "winback_50"])
            #expect(missing.status == 409 && missing.errorCode == "not_configured", "\(missing)")
        }
    }
}
