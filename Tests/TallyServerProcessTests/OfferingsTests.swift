import Foundation
import Testing

extension ServerProcessTests {
    /// The offerings document through a real `tally serve` (docs/server.md, *Offerings*): seeded from
    /// `offerings.file`, answered per placement and customer with ETags, edited with `If-Match`, versioned, rolled back,
    /// and its entitlement mapping live on a running server.
    @Suite struct Offerings {
        static func seeded(_ options: ServerOptions = ServerOptions()) throws -> ServerFixture {
            var options = options
            options.offeringsSeed = true
            return try ServerFixture(options)
        }

        @Test func theSeedIsVersionOneAndAnUnchangedETagIs304() async throws {
            let fixture = try Self.seeded()
            let client = fixture.client
            let first = try await client.offerings(["placement": "settings"])
            #expect(first.status == 200, "\(first)")
            let body = try first.json()
            #expect(body["version"] as? Int == 1)
            #expect(body["current"] as? String == "default")
            #expect(body["placement"] as? String == "settings")
            #expect((body["offerings"] as? [[String: Any]])?.map { $0["id"] as? String } == ["default", "intro"])
            let packages = ((body["offerings"] as? [[String: Any]])?.first?["packages"] as? [[String: Any]]) ?? []
            #expect(packages.map { $0["productId"] as? String }
                    == ["market.pro.monthly", "market.pro.yearly", "market.premium", "market.coins.100"])
            let tag = try #require(first.header("ETag"))
            #expect(first.header("Cache-Control") == "private, no-cache")
            let again = try await client.offerings(["placement": "settings"], headers: ["If-None-Match": tag])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("ETag") == tag)
            let listed = try await client.offerings(["placement": "settings"], headers: ["If-None-Match": "\"x\", W/\(tag)"])
            #expect(listed.status == 304, "a list of tags, a weak one among them")
            let other = try await client.offerings(["placement": "onboarding"], headers: ["If-None-Match": tag])
            #expect(other.status == 200, "another placement chooses another offering: another ETag")
            #expect(try other.json()["current"] as? String == "intro")
            #expect(other.header("ETag") != tag)
        }

        /// 10,000 customers through the server: the Market's 50/50 experiment splits them within 1% of 5,000 each,
        /// and each of them, asked again, lands in the same arm.
        @Test func anExperimentSplitsTenThousandCustomersAndPutsEachInOneArmOnEveryCall() async throws {
            let fixture = try Self.seeded()
            let client = fixture.client
            func arm(_ index: Int) async throws -> (String, String?) {
                let body = try await client.offerings(["placement": "onboarding", "appUserId": "user-\(index)@example.com"]).json()
                let experiment = body["experiment"] as? [String: Any]
                #expect(experiment?["id"] as? String == "onboarding-test")
                let arm = experiment?["arm"] as? String ?? "?"
                #expect(body["current"] as? String == (arm == "a" ? "intro" : "default"), "the arm's offering")
                return (arm, body["current"] as? String)
            }
            let first = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                var arms = [String](repeating: "", count: 10_000)
                for batch in stride(from: 0, to: 10_000, by: 500) {
                    for index in batch..<(batch + 500) { group.addTask { (index, try await arm(index).0) } }
                    for try await (index, name) in group { arms[index] = name }
                }
                return arms
            }
            let counts = Dictionary(grouping: first, by: { $0 }).mapValues(\.count)
            #expect(abs(counts["a", default: 0] - 5_000) <= 100, "\(counts)")
            #expect(abs(counts["b", default: 0] - 5_000) <= 100, "\(counts)")
            for index in stride(from: 0, to: 10_000, by: 10) {
                #expect(try await arm(index).0 == first[index], "customer \(index) asked again")
            }
            let anonymous = try await client.offerings(["placement": "onboarding"]).json()
            #expect(anonymous["experiment"] is NSNull, "no customer, no experiment")
        }

        @Test func aPutNeedsIfMatchOnTheLiveVersionAndProductsTheCatalogHas() async throws {
            let fixture = try Self.seeded()
            let client = fixture.client
            var (version, document) = try await client.liveOfferings()
            #expect(version == 1)
            #expect(try await client.putOfferings(document, following: nil).status == 428)
            let stale = try await client.putOfferings(document, following: 7)
            #expect(stale.status == 412)
            #expect(stale.errorCode == "version_conflict")
            #expect(try stale.error()["message"].map { "\($0)".contains("version is 1") } == true, "\(stale)")
            var offerings = try #require(document["offerings"] as? [[String: Any]])
            var packages = try #require(offerings[1]["packages"] as? [[String: Any]])
            packages.append(["id": "gold", "productId": "market.gold.forever"])
            offerings[1]["packages"] = packages
            document["offerings"] = offerings
            let unknown = try await client.putOfferings(document, following: 1)
            #expect(unknown.status == 422, "\(unknown)")
            #expect(unknown.errorCode == "invalid_offerings")
            #expect(try unknown.error()["message"].map { "\($0)".contains("offerings.intro.packages.gold: product market.gold.forever is not in Market.storekit") } == true, "\(unknown)")
            #expect(try await client.liveOfferings().version == 1, "nothing was saved")
            packages.removeLast()
            packages.append(["id": "yearly", "productId": "market.pro.yearly"])
            offerings[1]["packages"] = packages
            offerings[1]["metadata"] = ["title": "Try Pro, now yearly too"]
            document["offerings"] = offerings
            let saved = try await client.putOfferings(document, following: 1)
            #expect(saved.status == 200, "\(saved)")
            #expect(saved.header("ETag") == "\"2\"")
            let answer = try await client.offerings(["placement": "onboarding"]).json()
            #expect(answer["version"] as? Int == 2)
            let intro = (answer["offerings"] as? [[String: Any]])?.first { $0["id"] as? String == "intro" }
            #expect((intro?["packages"] as? [[String: Any]])?.map { $0["id"] as? String } == ["monthly", "yearly"])
            #expect((intro?["metadata"] as? [String: Any])?["title"] as? String == "Try Pro, now yearly too")
            (version, document) = try await client.liveOfferings()
            #expect(version == 2)
            #expect(try await client.putOfferings(document, following: 1).status == 412, "the same If-Match twice: one wins")
        }

        @Test func everyVersionIsKeptAndARollbackSavesAnOldOneAgain() async throws {
            let fixture = try Self.seeded()
            let client = fixture.client
            var (_, document) = try await client.liveOfferings()
            document["current"] = "intro"
            #expect(try await client.putOfferings(document, following: 1).status == 200)
            let rollback = try await client.send("POST", "/v1/offerings/rollback", key: fixture.keys.secretKey,
                                                 body: try APIClient.json(["version": 1]), headers: ["If-Match": "\"2\""])
            #expect(rollback.status == 200, "\(rollback)")
            #expect(try rollback.json()["version"] as? Int == 3)
            #expect(try rollback.json()["rolledBackTo"] as? Int == 1)
            #expect(try await client.offerings().json()["current"] as? String == "default")
            let history = try await client.send("GET", "/v1/offerings/history", key: fixture.keys.dashboardKey)
            #expect(history.status == 200, "\(history)")
            let versions = try #require(try history.json()["versions"] as? [[String: Any]])
            #expect(versions.map { $0["version"] as? Int } == [3, 2, 1])
            #expect(versions.map { $0["origin"] as? String } == ["rollback", "put", "seed"])
            let one = try await client.offeringsDocument(version: 1).json()["document"] as? [String: Any]
            let three = try await client.offeringsDocument(version: 3).json()["document"] as? [String: Any]
            #expect(one.map { NSDictionary(dictionary: $0) } == three.map { NSDictionary(dictionary: $0) })
            let page = try await client.send("GET", "/v1/offerings/history?limit=2", key: fixture.keys.secretKey).json()
            #expect((page["versions"] as? [[String: Any]])?.count == 2)
            #expect(page["next"] as? Int == 2)
            #expect(try await client.offeringsDocument(version: 9).status == 404)
        }

        @Test func keysRolesAndHostileInputAreRefusedAndNothingIsSaved() async throws {
            let fixture = try Self.seeded()
            let client = fixture.client
            let (_, document) = try await client.liveOfferings()
            #expect(try await client.putOfferings(document, following: 1, key: fixture.keys.publicKey).status == 403)
            #expect(try await client.putOfferings(document, following: 1, key: fixture.keys.dashboardKey).status == 403)
            #expect(try await client.offeringsDocument(key: fixture.keys.publicKey).status == 403)
            #expect(try await client.send("GET", "/v1/offerings").status == 401)
            let deep = Data((String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)).utf8)
            #expect(try await client.putOfferings(raw: deep, following: 1).errorCode == "json_too_deep")
            #expect(try await client.putOfferings(raw: Data("{\"offerings\":".utf8), following: 1).errorCode == "malformed_json")
            let badMatch = try await client.putOfferings(raw: try APIClient.json(document), following: nil, ifMatch: "\"1; drop\"")
            #expect(badMatch.status == 400)
            var renamed = document
            renamed["currencies"] = ["gems": ["market.coins.10": 10]]
            let currencies = try await client.putOfferings(renamed, following: 1)
            #expect(currencies.status == 422)
            #expect(try currencies.error()["message"].map { "\($0)".contains("tally.json and restart") } == true)
            var typo = document
            typo["placement"] = ["settings": "default"]
            let unknownKey = try await client.putOfferings(typo, following: 1)
            #expect(unknownKey.status == 422)
            #expect(try unknownKey.error()["message"].map { "\($0)".contains("placement is not a key here") } == true)
            #expect(try await client.offerings(["storefront": "usa"]).status == 400)
            #expect(try await client.offerings(["appVersion": "2.x"]).status == 400)
            #expect(try await client.offerings(["placement": String(repeating: "p", count: 129)]).status == 400)
            let wrongMethod = try await client.send("DELETE", "/v1/offerings", key: fixture.keys.secretKey)
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Allow")?.contains("PUT") == true, "\(wrongMethod.headers)")
            #expect(try await client.liveOfferings().version == 1)
            await expectHealthy(client, after: "hostile offerings requests")
        }

        @Test func aMappingChangeMovesAnEntitlementOnTheRunningServerAndSurvivesARestart() async throws {
            let fixture = try Self.seeded()
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "mo")
            #expect(try await fixture.client.postTransaction(jws, for: "mo").status == 200)
            #expect(JSONFields.features(try await fixture.client.customer("mo")).contains("premium"))
            var (_, document) = try await fixture.client.liveOfferings()
            document["entitlements"] = ["premium": ["market.removeads"], "vip": ["market.premium"],
                                        "pro": ["market.pro.monthly", "market.pro.yearly"]]
            #expect(try await fixture.client.putOfferings(document, following: 1).status == 200)
            let after = JSONFields.features(try await fixture.client.customer("mo"))
            #expect(after == ["vip"], "the cached state was dropped and computed under the new mapping: \(after)")
            _ = try fixture.server.terminate()
            try fixture.restart()
            #expect(JSONFields.features(try await fixture.client.customer("mo")) == ["vip"], "the store's mapping, not tally.json's")
            #expect(try await fixture.client.liveOfferings().version == 2, "a restart saves no new version")
        }

        @Test func withoutASeedFileVersionOneHoldsTallyJsonsMappingAndNoOfferings() async throws {
            let fixture = try ServerFixture()
            let answer = try await fixture.client.offerings().json()
            #expect(answer["version"] as? Int == 1)
            #expect(answer["current"] is NSNull)
            #expect((answer["offerings"] as? [Any])?.isEmpty == true)
            let document = try await fixture.client.liveOfferings().document
            #expect((document["entitlements"] as? [String: Any])?["premium"] as? [String] == ["market.premium"])
        }

        /// Two servers on one PostgreSQL database: a PUT on one changes the mapping the other serves within
        /// `offerings.refreshSeconds` (1 here), without a restart; the kept state of the old mapping is not served.
        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func aMappingChangeOnOneServerReachesTheOtherWithinTheRefresh() async throws {
            let cluster = try PostgresCluster.shared()
            var options = ServerOptions()
            options.offeringsSeed = true
            options.offeringsRefreshSeconds = 1
            let pair = try ServerPair(cluster: cluster, options: options)
            var market = try pair.fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "pat")
            #expect(try await pair.clients[0].postTransaction(jws, for: "pat").status == 200)
            #expect(JSONFields.features(try await pair.clients[1].customer("pat")).contains("premium"))
            var (version, document) = try await pair.clients[0].liveOfferings()
            document["entitlements"] = ["vip": ["market.premium"]]
            #expect(try await pair.clients[0].putOfferings(document, following: version).status == 200)
            #expect(JSONFields.features(try await pair.clients[0].customer("pat")) == ["vip"], "the saving server at once")
            var seen: Set<String> = []
            let deadline = Date().addingTimeInterval(15)
            repeat {
                seen = JSONFields.features(try await pair.clients[1].customer("pat"))
                if seen == ["vip"] { break }
                try await Task.sleep(for: .milliseconds(100))
            } while Date() < deadline
            #expect(seen == ["vip"], "the other server serves the new mapping: \(seen)")
            let answer = try await pair.clients[1].offerings().json()
            #expect(answer["version"] as? Int == version + 1)
            (version, document) = try await pair.clients[1].liveOfferings()
            #expect(try await pair.clients[1].putOfferings(document, following: version - 1).status == 412,
                    "a save following an old version loses on either server")
        }
    }
}
