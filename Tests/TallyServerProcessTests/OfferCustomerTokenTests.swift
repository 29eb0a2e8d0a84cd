import Foundation
import Testing
import TallyCore

extension ServerProcessTests {
    /// The offer routes with the public key and a customer token in place of the secret key, through a real
    /// `tally serve` (``OfferSignatures/server(configured:postgres:customerTokens:)``): `winback_50` and `once_10` are
    /// listed with `customerToken: true`, `lapsed_20` is not; eligibility has `customerToken` on.
    @Suite struct OfferCustomerTokens {
        static let promotional = "/v1/offers/promotional/signature", eligibility = "/v1/offers/introductory/eligibility"

        /// A token for `user` made by `tally serve customer-token` with the fixture's configured key.
        static func token(_ fixture: ServerFixture, for user: String) throws -> String {
            let made = try runCommand(TestPaths.tally.path, ["serve", "customer-token", "--config", fixture.configFile.path,
                                                             "--user", user, "--seconds", "600"])
            guard made.status == 0 else { throw HarnessError("customer-token: \(made.output)") }
            return made.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// A public-key request with `token` (none when nil).
        static func ask(_ fixture: ServerFixture, _ path: String, _ body: [String: Any], token: String?) async throws
            -> HTTPReply
        {
            try await OfferSignatures.post(fixture, path, body, key: fixture.keys.publicKey, customerToken: token)
        }

        @Test func aCustomerTokenForTheBodysCustomerStandsInForTheSecretKey() async throws {
            let (fixture, keyPath) = try OfferSignatures.server(customerTokens: true)
            let alice = try Self.token(fixture, for: "alice")
            let signed = try await Self.ask(fixture, Self.promotional, ["productId": "market.pro.monthly",
                                                                        "offerIdentifier": "winback_50", "appUserId": "alice"],
                                            token: alice)
            #expect(signed.status == 200, "\(signed)")
            #expect(signed.header("Cache-Control") == "no-store")
            let checked = try OfferSignatures.verify(fixture, "promotional", [
                keyPath, OfferSignatures.bundleId, OfferSignatures.keyId, OfferSignatures.issuerId, "market.pro.monthly",
                "winback_50", "-", "-"], signed)
            #expect(checked.status == 0, "the same signature the secret key gets: \(checked.output)")

            // perCustomer counts the token's customer as it counts the secret key's.
            let once = ["productId": "market.pro.monthly", "offerIdentifier": "once_10", "appUserId": "alice"]
            #expect(try await Self.ask(fixture, Self.promotional, once, token: alice).status == 200)
            let again = try await Self.ask(fixture, Self.promotional, once, token: alice)
            #expect(again.status == 403 && again.errorCode == "offer_not_eligible", "\(again)")
            let backend = try await OfferSignatures.post(fixture, Self.promotional, once)
            #expect(backend.status == 403 && backend.errorCode == "offer_not_eligible", "one count per customer: \(backend)")

            var market = try fixture.market()
            let (pro, proJWS) = try market.buySigned("market.pro.monthly", account: "ann")
            #expect(try await fixture.client.postTransaction(proJWS, for: "ann").status == 200)
            let used = try await Self.ask(fixture, Self.eligibility, ["productId": "market.plus.monthly", "appUserId": "ann"],
                                          token: try Self.token(fixture, for: "ann"))
            #expect(used.status == 200, "\(used)")
            let usedChecked = try OfferSignatures.verify(fixture, "eligibility", [
                keyPath, OfferSignatures.bundleId, OfferSignatures.keyId, OfferSignatures.issuerId, "market.plus.monthly",
                "false", pro.originalTransactionId], used)
            #expect(usedChecked.status == 0, "\(usedChecked.output)")

            // The secret key keeps working without a token.
            let secret = try await OfferSignatures.post(fixture, Self.promotional,
                                                        ["productId": "market.pro.monthly", "offerIdentifier": "lapsed_20",
                                                         "appUserId": "bob"])
            #expect(secret.status == 403 && secret.errorCode == "offer_not_eligible", "judged as before: \(secret)")
            let plain = try await OfferSignatures.post(fixture, Self.promotional,
                                                       ["productId": "market.pro.monthly", "offerIdentifier": "winback_50"])
            #expect(plain.status == 200, "\(plain)")
        }

        @Test func aStrangerWithThePublicKeyAndTheirOwnTokenGetsNothingForAnotherCustomer() async throws {
            let (fixture, _) = try OfferSignatures.server(customerTokens: true)
            let alice = try Self.token(fixture, for: "alice"), mallory = try Self.token(fixture, for: "mallory")
            func offer(_ id: String, for user: String?) -> [String: Any] {
                var body: [String: Any] = ["productId": "market.pro.monthly", "offerIdentifier": id]
                if let user { body["appUserId"] = user }
                return body
            }
            let eligible = { (user: String) -> [String: Any] in ["productId": "market.pro.monthly", "appUserId": user,
                                                                 "transactionId": "2000000000000042"] }
            for (path, body) in [(Self.promotional, offer("winback_50", for: "alice")), (Self.eligibility, eligible("alice"))] {
                let stranger = try await Self.ask(fixture, path, body, token: mallory)
                #expect(stranger.status == 403 && stranger.errorCode == "customer_token_mismatch", "\(path): \(stranger)")
                let none = try await Self.ask(fixture, path, body, token: nil)
                #expect(none.status == 401 && none.errorCode == "customer_token_required", "\(path): \(none)")
                #expect(none.header("WWW-Authenticate") != nil)
                let forged = try await Self.ask(fixture, path, body, token: alice + "x")
                #expect(forged.status == 401 && forged.errorCode == "invalid_customer_token", "\(path): \(forged)")
                let garbage = try await Self.ask(fixture, path, body, token: "x.y.z")
                #expect(garbage.status == 401 && garbage.errorCode == "invalid_customer_token", "\(path): \(garbage)")
                let dashboard = try await OfferSignatures.post(fixture, path, body, key: fixture.keys.dashboardKey,
                                                               customerToken: alice)
                #expect(dashboard.status == 403 && dashboard.errorCode == "forbidden", "\(path): \(dashboard)")
            }
            // Look-alikes of alice's id are other customers: a trailing space, Cyrillic а (U+0430), a zero-width space.
            for lookAlike in ["alice ", "\u{430}lice", "alice\u{200B}", "ALICE"] {
                let promotional = try await Self.ask(fixture, Self.promotional, offer("winback_50", for: lookAlike), token: alice)
                #expect(promotional.status == 403 && promotional.errorCode == "customer_token_mismatch",
                        "\(Array(lookAlike.utf8)): \(promotional)")
                let eligibility = try await Self.ask(fixture, Self.eligibility, eligible(lookAlike), token: alice)
                #expect(eligibility.status == 403 && eligibility.errorCode == "customer_token_mismatch",
                        "\(Array(lookAlike.utf8)): \(eligibility)")
            }
            // With a token the body must name its customer.
            let nameless = try await Self.ask(fixture, Self.promotional, offer("winback_50", for: nil), token: alice)
            #expect(nameless.status == 400 && nameless.errorCode == "invalid_request", "\(nameless)")
            let namelessEligibility = try await Self.ask(fixture, Self.eligibility, ["productId": "market.pro.monthly"],
                                                         token: alice)
            #expect(namelessEligibility.status == 400 && namelessEligibility.errorCode == "invalid_request")
            // An offer listed without customerToken, or not listed at all, stays the secret key's.
            for id in ["lapsed_20", "loyal_30", "no_such_offer"] {
                let refused = try await Self.ask(fixture, Self.promotional, offer(id, for: "alice"), token: alice)
                #expect(refused.status == 403 && refused.errorCode == "forbidden", "\(id): \(refused)")
            }
        }

        @Test func anAliasSpeaksForItsCustomerAndAnAnonymousIdNeedsAToken() async throws {
            let (fixture, _) = try OfferSignatures.server(customerTokens: true)
            let anonymous = AnonymousCustomerId.make(), lone = AnonymousCustomerId.make()
            let aliased = try await fixture.client.alias(anonymous, to: "alice", key: fixture.keys.secretKey)
            #expect(aliased.status == 200, "\(aliased)")
            let body = { (user: String) -> [String: Any] in
                ["productId": "market.pro.monthly", "offerIdentifier": "winback_50", "appUserId": user] }
            let alice = try Self.token(fixture, for: "alice")
            let own = try await Self.ask(fixture, Self.promotional, body(anonymous), token: alice)
            #expect(own.status == 200, "the alias is alice's: \(own)")
            let other = try await Self.ask(fixture, Self.promotional, body(anonymous), token: try Self.token(fixture, for: "bob"))
            #expect(other.status == 403 && other.errorCode == "customer_token_mismatch", "\(other)")
            let bare = try await Self.ask(fixture, Self.promotional, body(lone), token: nil)
            #expect(bare.status == 401 && bare.errorCode == "customer_token_required",
                    "a fresh anonymous id is no proof here (anyone can make one per signature): \(bare)")
        }

        @Test func withoutCustomerTokenThePublicKeyIsForbiddenBeforeItsBodyIsRead() async throws {
            let (fixture, _) = try OfferSignatures.server()
            for path in [Self.promotional, Self.eligibility] {
                let reply = try await fixture.client.send("POST", path, key: fixture.keys.publicKey, body: Data("{".utf8))
                #expect(reply.status == 403 && reply.errorCode == "forbidden", "\(path): \(reply)")
            }
        }
    }
}
