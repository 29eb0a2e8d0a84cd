import Foundation
import TallyCore
import TallySandbox
import Testing

extension ServerProcessTests {
    /// Issue 28, *Identity*, through a real `tally serve`: an anonymous customer aliased to an identified one, with
    /// its purchases, under both ownership policies; the refusals; attributes and their bounds.
    @Suite struct Aliases {
        static func anonymous() -> String { AnonymousCustomerId.make() }

        func fixture(ownership: String) throws -> ServerFixture {
            var options = ServerOptions()
            options.ownership = ownership
            return try ServerFixture(options)
        }

        /// The customer objects of both ids, equal (the same state, under the identified id).
        func sameState(_ client: APIClient, _ anonymous: String, _ identified: String) async throws -> [String: Any] {
            let byIdentified = try await client.customer(identified)
            let byAnonymous = try await client.customer(anonymous)
            #expect(JSONFields.equal(byIdentified, byAnonymous), "GET by either id: \(byIdentified) vs \(byAnonymous)")
            #expect(byAnonymous["appUserId"] as? String == identified)
            return byIdentified
        }

        @Test(arguments: ["transfer", "keep"])
        func anAnonymousPurchaseFollowsTheAliasUnderEitherPolicy(_ ownership: String) async throws {
            let fixture = try fixture(ownership: ownership)
            let client = fixture.client
            var market = try fixture.market()
            let anon = Self.anonymous(), alice = "alice-\(ownership)"
            let token = try await client.accountToken(anon)
            let (premium, premiumJWS) = try market.buySigned("market.premium", account: "device", appAccountToken: token)
            #expect(try await client.postTransaction(premiumJWS, for: anon).status == 200)
            let (_, coinsJWS) = try market.buySigned("market.coins.10", account: "device", appAccountToken: token)
            #expect(try await client.postTransaction(coinsJWS, for: anon).status == 200)
            #expect(try await client.spend(3, id: "before-sign-up", for: anon).status == 200)
            // Both states cached before the alias: neither may be served after it.
            #expect(JSONFields.nonConsumables(try await client.customer(alice)).isEmpty)
            #expect(JSONFields.balance(try await client.customer(anon)) == 7)

            let aliased = try await client.alias(anon, to: alice)
            #expect(aliased.status == 200, "\(aliased)")
            #expect(try aliased.json()["outcome"] as? String == "aliased")
            let state = try await sameState(client, anon, alice)
            #expect(JSONFields.nonConsumables(state) == ["market.premium"])
            #expect(JSONFields.balance(state) == 7, "the coins and the spend moved")
            let history = try await client.history(alice)
            #expect(JSONFields.transactionIds(history).contains(premium.transactionId))
            #expect(JSONFields.items(history, kind: "alias").map { $0["alias"] as? String } == [anon],
                    "the history says when the anonymous purchases arrived")
            let again = try await client.alias(anon, to: alice)
            #expect(again.status == 200, "\(again)")
            #expect(try again.json()["outcome"] as? String == "unchanged")

            // The anonymous customer's minted token now speaks for alice: Apple's next charge with it lands there.
            let (later, _) = try market.buySigned("market.coins.10", account: "device", appAccountToken: token)
            let charged = try await Notifications.post(try market.sign(ServerNotification(
                notificationType: .oneTimeCharge, notificationUUID: UUID().uuidString,
                signedDate: later.signedDate ?? later.purchaseDate,
                data: NotificationData(bundleId: "com.example.market", environment: .sandbox,
                                       signedTransactionInfo: try market.signed(later)))), to: client)
            #expect(charged.status == 200, "\(charged)")
            #expect(JSONFields.balance(try await sameState(client, anon, alice)) == 17)
            #expect(try await client.accountToken(alice) == token, "alice had none: the device's token is hers now")

            // A stranger posting the moved purchase gets it only as the policy says, never through the alias.
            let stranger = try await client.postTransaction(premiumJWS, for: "mallory")
            if ownership == "keep" {
                #expect(stranger.status == 409 && stranger.errorCode == "owned_by_another_customer", "\(stranger)")
                #expect(JSONFields.nonConsumables(try await client.customer(alice)) == ["market.premium"])
            } else {
                #expect(stranger.status == 200, "transfer moves a restorable chain to whoever posts it: \(stranger)")
            }
        }

        @Test func onlyAnAnonymousIdCanBeAnAliasAndOnlyOfOneCustomer() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            let anon = Self.anonymous()
            for bad in ["bob", anon.uppercased(), String(anon.dropLast()), anon + "0", ""] {
                let refused = try await client.alias(bad, to: "alice")
                #expect(refused.status == (bad.isEmpty ? 400 : 422), "'\(bad)': \(refused)")
                if !bad.isEmpty { #expect(refused.errorCode == "invalid_alias", "\(refused)") }
            }
            let ontoAnonymous = try await client.alias(anon, to: Self.anonymous())
            #expect(ontoAnonymous.status == 422 && ontoAnonymous.errorCode == "invalid_alias", "\(ontoAnonymous)")

            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "device")
            #expect(try await client.postTransaction(jws, for: anon).status == 200)
            #expect(try await client.alias(anon, to: "alice").status == 200)
            let conflict = try await client.alias(anon, to: "mallory")
            #expect(conflict.status == 409 && conflict.errorCode == "alias_conflict", "\(conflict)")
            #expect(!String(decoding: conflict.body, as: UTF8.self).contains("alice"), "the owner is not named")
            #expect(JSONFields.nonConsumables(try await client.customer("mallory")).isEmpty)
            #expect(JSONFields.nonConsumables(try await client.customer(anon)) == ["market.premium"])
            #expect(try await client.customer(anon)["appUserId"] as? String == "alice")
        }

        @Test func anAliasedAnonymousIdNeedsTheIdentifiedCustomersToken() async throws {
            let tokens = CustomerTokens()
            let fixture = try tokens.fixture(requireToken: true)
            let client = fixture.client
            let anon = Self.anonymous()
            #expect(try await client.customerReply(anon).status == 200, "an anonymous id is its own proof")
            let bare = try await client.alias(anon, to: "alice")
            #expect(bare.status == 401 && bare.errorCode == "customer_token_required", "\(bare)")
            let malloryToken = try tokens.token(fixture, for: "mallory")
            let wrong = try await client.alias(anon, to: "alice", customerToken: malloryToken)
            #expect(wrong.status == 403 && wrong.errorCode == "customer_token_mismatch", "\(wrong)")
            let aliceToken = try tokens.token(fixture, for: "alice")
            #expect(try await client.alias(anon, to: "alice", customerToken: aliceToken).status == 200)
            let after = try await client.customerReply(anon)
            #expect(after.status == 401 && after.errorCode == "customer_token_required",
                    "once aliased, the anonymous id is alice and needs her token: \(after)")
            let asAlice = try await client.send("GET", APIClient.customerPath(anon), key: fixture.keys.publicKey,
                                                headers: ["Tally-Customer-Token": aliceToken])
            #expect(asAlice.status == 200, "\(asAlice)")
            #expect(try asAlice.customer()["appUserId"] as? String == "alice")
        }

        @Test func attributesMergeFollowTheAliasAndStayWithinTheirBounds() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            let anon = Self.anonymous()
            let set = try await client.setAttributes(["email": "a@b.c", "campaign": "spring"], for: anon)
            #expect(set.status == 200, "\(set)")
            #expect(try await client.attributes(of: anon, key: fixture.keys.publicKey).status == 403,
                    "reading attributes takes the secret key")
            #expect(try await client.setAttributes(["campaign": NSNull(), "name": "Al"], for: anon).status == 200)
            #expect(try await client.attributes(of: anon).json()["attributes"] as? [String: String]
                    == ["email": "a@b.c", "name": "Al"])

            let longKey = String(repeating: "k", count: 65)
            let refusals: [([String: Any], String)] = [
                ([longKey: "v"], longKey.prefix(64) + "…"), (["big": String(repeating: "x", count: 4_097)], "big"),
                (["number": 5], "number"), (["": "v"], "empty"),
            ]
            for (body, named) in refusals {
                let refused = try await client.setAttributes(body, for: anon)
                #expect(refused.status == 422 && refused.errorCode == "invalid_attributes", "\(refused)")
                #expect(String(decoding: refused.body, as: UTF8.self).contains(named), "names the key: \(refused)")
            }
            #expect(try await client.setAttributes(["exact": String(repeating: "x", count: 4_096)], for: anon).status == 200)
            var many: [String: Any] = [:]
            for index in 0..<97 { many["k\(index)"] = "v" }
            #expect(try await client.setAttributes(many, for: anon).status == 200, "100 keys")
            let past = try await client.setAttributes(["one-too-many": "v"], for: anon)
            #expect(past.status == 422 && past.errorCode == "invalid_attributes", "\(past)")
            #expect(String(decoding: past.body, as: UTF8.self).contains("one-too-many"))

            #expect(try await client.alias(anon, to: "alice").status == 200)
            let alice = try await client.attributes(of: "alice").json()["attributes"] as? [String: String]
            #expect(alice?.count == 100 && alice?["email"] == "a@b.c", "the attributes followed the alias")
            #expect(try await client.attributes(of: anon).json()["attributes"] as? [String: String] == alice)
        }

        @Test func theDashboardShowsACustomersAliasesAndAttributes() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            let anon = Self.anonymous()
            #expect(try await client.setAttributes(["email": "a@b.c"], for: anon).status == 200)
            #expect(try await client.alias(anon, to: "alice").status == 200)
            for id in ["alice", anon] {
                let reply = try await client.send("GET", "/v1/dashboard/identity?id=" + PercentEncoding.pathSegment(id),
                                                  key: fixture.keys.dashboardKey)
                #expect(reply.status == 200, "\(reply)")
                let body = try reply.json()
                #expect(body["appUserId"] as? String == "alice")
                #expect(body["aliasOf"] as? String == (id == anon ? "alice" : nil))
                #expect((body["aliases"] as? [[String: Any]])?.map { $0["alias"] as? String } == [anon])
                #expect(body["attributes"] as? [String: String] == ["email": "a@b.c"])
            }
            let publicKey = try await client.send("GET", "/v1/dashboard/identity?id=alice", key: fixture.keys.publicKey)
            #expect(publicKey.status == 403, "\(publicKey)")
            let page = try await client.send("GET", "/dashboard/views.js")
            #expect(String(decoding: page.body, as: UTF8.self).contains("Aliases"), "the customer page lists them")
        }

        @Test func postsInFlightDuringTheAliasAllLandWithTheIdentifiedCustomer() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            let anon = Self.anonymous()
            var purchases: [String] = []
            for _ in 0..<24 { purchases.append(try market.buySigned("market.coins.10", account: "device").1) }
            let all = purchases
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for (index, jws) in all.enumerated() {
                    group.addTask {
                        if index == 12 { _ = try await client.alias(anon, to: "alice") }
                        return try await client.postTransaction(jws, for: anon).status
                    }
                }
                var found: [Int] = []
                for try await status in group { found.append(status) }
                return found
            }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            let state = try await sameState(client, anon, "alice")
            #expect(JSONFields.balance(state) == 240, "every post, before, during or after the alias, is alice's")
            #expect(JSONFields.transactionIds(try await client.history("alice")).count == 24)
        }

        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func twoServersOnOnePostgreSQLAnswerTheAliasedStateByEitherId() async throws {
            let cluster = try PostgresCluster.shared()
            let pair = try ServerPair(cluster: cluster)
            var market = try pair.fixture.market()
            let anon = Self.anonymous()
            let (_, jws) = try market.buySigned("market.premium", account: "device")
            #expect(try await pair.clients[1].postTransaction(jws, for: anon).status == 200)
            #expect(JSONFields.nonConsumables(try await pair.clients[1].customer("alice")).isEmpty, "kept before")
            #expect(try await pair.clients[0].alias(anon, to: "alice").status == 200)
            for client in pair.clients {
                let state = try await sameState(client, anon, "alice")
                #expect(JSONFields.nonConsumables(state) == ["market.premium"], "no server serves a state kept before")
            }
            #expect(try await pair.clients[1].alias(anon, to: "bob").errorCode == "alias_conflict")
        }
    }
}
