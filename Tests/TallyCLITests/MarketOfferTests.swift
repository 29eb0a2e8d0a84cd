import Foundation
import Testing

/// Offers end to end: `tally market` (the engine over the sandbox) buys with signatures `tally serve` makes with
/// the in-app purchase key `tally sandbox api-key` registered, and the sandbox checks them as the App Store does.
@Suite("tally market buys offers signed by tally serve")
struct MarketOfferTests {
    final class World {
        let sandbox: MarketSandbox
        let server: LinkedServer

        /// With `customerTokens`, the server requires customer tokens and lets them ask for pro_comeback and for
        /// eligibility (`customerToken: true`).
        init(customerTokens: Bool = false) throws {
            sandbox = try MarketSandbox()
            let made = try sandbox.run("api-key", "--json")
            let key = try made.json()
            guard made.status == 0, let keyId = key["keyId"] as? String, let issuerId = key["issuerId"] as? String,
                  let path = key["privateKeyPath"] as? String else { throw CLITestError("api-key: \(made.stderr)") }
            let offers: [String: Any] = customerTokens
                ? ["promotional": [["offerIdentifier": "pro_comeback", "customerToken": true]],
                   "introductoryEligibility": ["customerToken": true]]
                : ["promotional": [["offerIdentifier": "pro_comeback"]]]
            server = try LinkedServer(trusting: sandbox.directory, requireCustomerTokens: customerTokens, extra: [
                "appStoreServerAPI": ["issuerId": issuerId, "keyId": keyId, "privateKey": path,
                                      "environment": "Sandbox", "baseURL": "http://127.0.0.1:9"],
                "offers": offers,
            ])
        }

        func market(_ account: String, user: String, _ command: [String], backend: Bool = true,
                    tokens: Bool = false) throws
            -> (status: Int32, answer: [String: Any], text: String)
        {
            let run = try TallyProcess.run(["market", "--data", sandbox.directory.path, "--account", account,
                                            "--device", "phone", "--server", server.url.absoluteString,
                                            "--key", server.publicKey, "--user", user]
                                           + (backend ? ["--backend-key", server.secretKey] : [])
                                           + (tokens ? ["--customer-token-secret",
                                                        server.directory.appendingPathComponent("customer-token.secret").path] : [])
                                           + command + ["--json"])
            return (run.status, (try? run.json()) ?? [:], run.stdout + run.stderr)
        }
    }

    @Test func aPromotionalOfferSignedByTheServerIsBoughtAtItsPrice() throws {
        let world = try World()
        let bought = try world.market("alice-id", user: "alice", ["buy", "market.pro.monthly", "--offer", "pro_comeback"])
        #expect(bought.status == 0, "\(bought.text)")
        #expect(bought.answer["offerType"] as? Int == 2, "\(bought.text)")
        #expect(bought.answer["offerIdentifier"] as? String == "pro_comeback")
        #expect(bought.answer["price"] as? Int == 1990)
        // The server holds the purchase with its offer.
        let history = try world.sandbox.run("history", "--account", "alice-id", "--json").json()
        let transactions = (history["transactions"] as? [[String: Any]] ?? []).compactMap { $0["transaction"] as? [String: Any] }
        #expect(transactions.first?["offerType"] as? Int == 2)
    }

    @Test func withAPolicyForCustomerTokensTheEngineAsksTheServerItself() throws {
        let world = try World(customerTokens: true)
        let bought = try world.market("hana-id", user: "hana", ["buy", "market.pro.monthly", "--offer", "pro_comeback"],
                                      backend: false, tokens: true)
        #expect(bought.status == 0, "\(bought.text)")
        #expect(bought.answer["offerType"] as? Int == 2 && bought.answer["price"] as? Int == 1990, "\(bought.text)")
        #expect(try world.sandbox.run("auto-renew", "market.pro.monthly", "off", "--account", "hana-id").status == 0)
        #expect(try world.sandbox.run("advance", "40d").status == 0)
        // ivan on hana's App Store account asks the server with his own token: its history of ivan allows the
        // free week, and the JWS names a transaction of the account.
        let intro = try world.market("hana-id", user: "ivan", ["buy", "market.pro.monthly", "--intro-eligibility"],
                                     backend: false, tokens: true)
        #expect(intro.status == 0 && intro.answer["offerType"] as? Int == 1, "\(intro.text)")
        // A device whose App Store account has no transaction cannot name one: the server refuses, nothing is bought.
        let none = try world.market("jon-id", user: "jon", ["buy", "market.pro.monthly", "--intro-eligibility"],
                                    backend: false, tokens: true)
        #expect(none.status == 1 && none.text.contains("transactionId"), "\(none.text)")
    }

    @Test func withoutTheAppBackendOrAPolicyForTokensTheServerSignsNothing() throws {
        let world = try World()
        let refused = try world.market("bob-id", user: "bob", ["buy", "market.pro.monthly", "--offer", "pro_comeback"],
                                       backend: false)
        #expect(refused.status == 1, "\(refused.text)")
        #expect(refused.text.contains("forbidden") || refused.text.contains("customer_token"), "\(refused.text)")
        #expect((try world.sandbox.run("history", "--account", "bob-id", "--json").json()["transactions"] as? [Any])?.isEmpty ?? true)
        // An offer the server's policy does not list is refused by the server, not signed.
        let unlisted = try world.market("bob-id", user: "bob", ["buy", "market.pro.yearly", "--offer", "pro_comeback"])
        #expect(unlisted.status == 1, "\(unlisted.text)")
        #expect(unlisted.text.contains("invalid_offer"), "\(unlisted.text)")
    }

    @Test func aLapsedSubscriberBuysWithTheWinBackOffer() throws {
        let world = try World()
        let never = try world.market("carol-id", user: "carol", ["buy", "market.pro.monthly", "--win-back", "pro_winback"])
        #expect(never.status == 1 && never.answer["errorCode"] as? String == "ineligibleForOffer", "\(never.text)")
        #expect(try world.market("carol-id", user: "carol", ["buy", "market.pro.monthly"]).status == 0)
        let early = try world.market("carol-id", user: "carol", ["buy", "market.pro.monthly", "--win-back", "pro_winback"])
        #expect(early.status == 1 && early.answer["errorCode"] as? String == "ineligibleForOffer", "\(early.text)")
        #expect(try world.sandbox.run("auto-renew", "market.pro.monthly", "off", "--account", "carol-id").status == 0)
        #expect(try world.sandbox.run("advance", "40d").status == 0)
        let back = try world.market("carol-id", user: "carol", ["buy", "market.pro.monthly", "--win-back", "pro_winback"])
        #expect(back.status == 0, "\(back.text)")
        #expect(back.answer["offerType"] as? Int == 4, "\(back.text)")
        #expect(back.answer["price"] as? Int == 0)
    }

    @Test func theServersEligibilityGrantsTheIntroOfferToAnAccountThatHadOne() throws {
        let world = try World()
        // dave's App Store account used the free week under dave…
        let first = try world.market("shared-id", user: "dave", ["buy", "market.pro.monthly"])
        #expect(first.answer["offerType"] as? Int == 1, "\(first.text)")
        #expect(try world.sandbox.run("auto-renew", "market.pro.monthly", "off", "--account", "shared-id").status == 0)
        #expect(try world.sandbox.run("advance", "40d").status == 0)
        // …so the App Store alone charges erin, another customer of the app on that account,
        let paid = try world.market("shared-id", user: "erin", ["buy", "market.pro.yearly"])
        #expect(paid.answer["offerType"] == nil && paid.status == 0, "\(paid.text)")
        #expect(try world.sandbox.run("auto-renew", "market.pro.yearly", "off", "--account", "shared-id").status == 0)
        #expect(try world.sandbox.run("advance", "400d").status == 0)
        // …while the server, whose history of frank has no introductory offer, grants it with its JWS.
        let granted = try world.market("shared-id", user: "frank", ["buy", "market.pro.monthly", "--intro-eligibility"])
        #expect(granted.status == 0, "\(granted.text)")
        #expect(granted.answer["offerType"] as? Int == 1, "\(granted.text)")
        #expect(granted.answer["price"] as? Int == 0)
        // frank, whose history on the server now holds it, is denied by the server's JWS: he pays. (dave's chain
        // went to the customer who bought on it last, by the server's ownership rule.)
        #expect(try world.sandbox.run("auto-renew", "market.pro.monthly", "off", "--account", "shared-id").status == 0)
        #expect(try world.sandbox.run("advance", "40d").status == 0)
        let denied = try world.market("shared-id", user: "frank", ["buy", "market.pro.monthly", "--intro-eligibility"])
        #expect(denied.status == 0, "\(denied.text)")
        #expect(denied.answer["offerType"] == nil, "\(denied.text)")
        #expect(denied.answer["price"] as? Int == 4990)
    }

    @Test func anOfferCodeRedeemedInTheSandboxReachesTheMarket() throws {
        let world = try World()
        let codes = try world.sandbox.run("offer-code", "create", "--offer", "pro_newsletter", "--count", "1")
        let code = codes.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(codes.status == 0 && code.count == 12, "\(codes.stdout)\(codes.stderr)")
        let redeemed = try world.sandbox.run("offer-code", "redeem", code, "--account", "gina-id", "--device", "phone", "--json")
        #expect(redeemed.status == 0, "\(redeemed.stderr)")
        #expect(try redeemed.json()["offerType"] as? Int == 3)
        // The market delivers the redemption (an unfinished transaction) to the server: the customer is Pro.
        let status = try world.market("gina-id", user: "gina", ["status"])
        #expect(status.text.contains("pro"), "\(status.text)")
        let again = try world.sandbox.run("offer-code", "redeem", code, "--account", "other-id")
        #expect(again.status == 1)
    }
}
