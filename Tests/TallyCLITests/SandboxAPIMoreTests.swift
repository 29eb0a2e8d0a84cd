import Foundation
import Testing

/// `tally sandbox serve`'s order, refund, consumption, extension and app-account-token endpoints, driven by
/// Apple's Python `AppStoreServerAPIClient` (apple_api_more.py), every answer checked against the sandbox's own
/// state as `tally sandbox history` and `refund-request` show it afterwards.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["CI"] == "true"
                             || ProcessInfo.processInfo.environment["TALLY_SKIP_APPLE_LIBRARY"] != "1",
                             "TALLY_SKIP_APPLE_LIBRARY=1 (ignored under CI=true)"))
struct SandboxAPIMoreTests {
    private func history(_ sandbox: MarketSandbox, account: String = "default") throws -> [String: Any] {
        try sandbox.run("history", "--json", "--account", account).json()
    }

    private func transactions(_ sandbox: MarketSandbox, account: String = "default") throws -> [[String: Any]] {
        (try history(sandbox, account: account)["transactions"] as? [[String: Any]] ?? [])
            .compactMap { $0["transaction"] as? [String: Any] }
    }

    private func eventKinds(_ sandbox: MarketSandbox, account: String = "default") throws -> [String] {
        (try history(sandbox, account: account)["events"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
    }

    private func appleClient(_ served: SandboxAPITests.Served, _ key: SandboxAPITests.Key, root: String,
                             ids: [String: String]) throws -> [String: Any] {
        let idsJSON = String(decoding: try JSONSerialization.data(withJSONObject: ids), as: UTF8.self)
        return try ApplePythonClient.run("apple_api_more.py", [served.baseURL, key.path, key.id, key.issuer,
                                                               "com.example.market", root, idsJSON])
    }

    /// A date of `history --json` (Apple's milliseconds since 1970).
    private static func ms(_ value: Any?) -> Int64? {
        (value as? NSNumber)?.int64Value
    }

    @Test func applesClientUsesOrdersRefundsConsumptionExtensionsAndTokens() throws {
        let sandbox = try MarketSandbox()
        #expect(try sandbox.run("buy", "market.pro.monthly").status == 0)
        #expect(try sandbox.run("buy", "market.pro.monthly", "--account", "other").status == 0)
        #expect(try sandbox.run("advance", "10d").status == 0)  // past the free week: both in a paid period
        for _ in 0..<23 { #expect(try sandbox.run("buy", "market.coins.10").status == 0) }
        let before = try history(sandbox)
        let items = before["transactions"] as? [[String: Any]] ?? []
        let all = items.compactMap { $0["transaction"] as? [String: Any] }
        let coins = all.filter { $0["productId"] as? String == "market.coins.10" }.compactMap { $0["transactionId"] as? String }
        let chain = all.filter { $0["productId"] as? String == "market.pro.monthly" }
        let subscription = try #require(chain.first?["transactionId"] as? String)
        let renewal = try #require(chain.last?["transactionId"] as? String)
        #expect(chain.count == 2 && renewal != subscription)
        let orderIds = items.compactMap { $0["orderId"] as? String }
        #expect(orderIds.count == all.count && Set(orderIds).count == all.count, "every transaction its own order id")
        let order = try #require(items.first { ($0["transaction"] as? [String: Any])?["transactionId"] as? String == coins[0] }?["orderId"] as? String)
        #expect(try sandbox.run("history").stdout.contains("order \(order)"), "the text history shows order ids")
        for coin in coins.prefix(21) { #expect(try sandbox.run("refund", coin).status == 0) }
        #expect(try sandbox.run("refund-request", coins[21], "--reason", "unsatisfied-with-purchase").status == 0)
        #expect(try sandbox.run("refund-request", coins[22]).status == 0)
        let expiryBefore = try #require(Self.ms(chain.last?["expiresDate"]))
        let otherExpiry = try #require(Self.ms(try transactions(sandbox, account: "other").last?["expiresDate"]))
        let mass = UUID().uuidString.lowercased()

        let api = SandboxAPITests()
        let key = try api.apiKey(sandbox)
        let served = try SandboxAPITests.Served(sandbox)
        defer { #expect(served.stop() == 0) }
        let seen = try appleClient(served, key, root: try sandbox.rootDER(), ids: [
            "order": order, "orderTx": coins[0], "customer": coins[22], "consumptionV2": coins[21],
            "consumptionV1": coins[22], "subscription": subscription, "renewal": renewal,
            "productId": "market.pro.monthly", "massRequest": mass,
        ])
        func error(_ name: String) -> [Int] {
            let object = seen[name] as? [String: Any]
            return [object?["status"] as? Int ?? -1, object?["code"] as? Int ?? -1]
        }
        func ok(_ name: String) -> Bool { (seen[name] as? [String: Any])?["ok"] as? Bool == true }

        // Look Up Order ID
        let found = seen["order"] as? [String: Any]
        #expect(found?["status"] as? Int == 0 && found?["ids"] as? [String] == [coins[0]])
        let unknown = seen["unknownOrder"] as? [String: Any]
        #expect(unknown?["status"] as? Int == 1 && unknown?["hasArray"] as? Bool == false, "200 status 1, no array")
        #expect(error("badOrder") == [400, 4_000_000])

        // Get Refund History v2: the 21 refunds, ascending, two pages; the final revision sees nothing newer
        let refunds = seen["refunds"] as? [String: Any]
        let refunded = (refunds?["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(refunded == Array(coins.prefix(21)), "\(refunded)")
        #expect(refunds?["pages"] as? Int == 2)
        let after = seen["refundsAfterFinal"] as? [String: Any]
        #expect(after?["count"] as? Int == 0 && after?["hasMore"] as? Bool == false)
        #expect(error("refundsBadRevision") == [400, 4_000_005])

        // Send Consumption Information, checked as Apple checks it
        #expect(ok("consumptionV2") && ok("consumptionV1"))
        #expect(error("consumptionNoConsent") == [400, 4_000_035])
        #expect(error("consumptionBadDelivery") == [400, 4_000_036])
        #expect(error("consumptionPercentOnSubscription") == [400, 4_000_209])
        #expect(error("consumptionUnknown") == [404, 4_040_010])
        #expect(error("consumptionV1BadPlatform") == [400, 4_000_039])
        #expect(error("consumptionV1BadToken") == [400, 4_000_033])

        // Extend a Subscription Renewal Date: +7 days, the same request again changes nothing, +3, then the limit
        let extend = try #require(seen["extend"] as? [String: Any])
        #expect(extend["original"] as? String == subscription && extend["success"] as? Bool == true)
        #expect(extend["effective"] as? Int64 == expiryBefore + 7 * 86_400_000)
        #expect(extend["again"] as? Int64 == expiryBefore + 7 * 86_400_000, "a resent requestIdentifier extends once")
        #expect(extend["second"] as? Int64 == expiryBefore + 10 * 86_400_000)
        #expect(extend["webOrderLineItemId"] as? String == chain.last?["webOrderLineItemId"] as? String)
        #expect(error("extendThird") == [403, 4_030_005])
        #expect(error("extendTooMany") == [400, 4_000_009])
        #expect(error("extendNoRequestId") == [400, 4_000_011])
        #expect(error("extendUnknown") == [404, 4_040_005])
        let expiry = seen["extendedExpiry"] as? [String: Any]
        #expect(expiry?["transaction"] as? Int64 == expiryBefore + 10 * 86_400_000)
        #expect(expiry?["renewal"] as? Int64 == expiryBefore + 10 * 86_400_000)

        // The mass extension: the other account's subscription extended, the default one at its limit failed
        let massSeen = try #require(seen["mass"] as? [String: Any])
        #expect(massSeen["requestIdentifier"] as? String == mass && massSeen["complete"] as? Bool == true)
        #expect(massSeen["succeeded"] as? Int == 1 && massSeen["failed"] as? Int == 1, "\(massSeen)")
        #expect(seen["massAgain"] as? String == mass)
        #expect(error("massBadId") == [400, 4_000_011])
        #expect(error("massBadProduct") == [400, 4_000_023])
        #expect(error("massEmptyStorefronts") == [400, 4_000_027])
        #expect(error("massStatusUnknown") == [404, 4_040_009])
        let elsewhere = seen["massElsewhere"] as? [String: Any]
        #expect(elsewhere?["complete"] as? Bool == true && elsewhere?["succeeded"] as? Int == 0
                && elsewhere?["failed"] as? Int == 0, "no subscriber in that storefront: \(elsewhere ?? [:])")
        #expect(Self.ms(try transactions(sandbox, account: "other").last?["expiresDate"]) == otherExpiry + 5 * 86_400_000)
        #expect(try eventKinds(sandbox, account: "other").filter { $0 == "renewalExtended" }.count == 1)
        let kinds = try eventKinds(sandbox)
        #expect(kinds.filter { $0 == "renewalExtended" }.count == 2 && kinds.contains("renewalExtensionFailed"))

        // Set App Account Token
        #expect(ok("setToken") && ok("setSubscriptionToken"))
        let token = seen["token"] as? [String: Any]
        #expect(token?["seen"] as? String == token?["sent"] as? String)
        #expect(try transactions(sandbox).first { $0["transactionId"] as? String == coins[0] }?["appAccountToken"] as? String
                == token?["sent"] as? String)
        #expect(error("tokenNotUUID") == [400, 4_000_183])
        #expect(error("tokenNotOriginal") == [400, 4_000_187])
        #expect(error("tokenUnknown") == [404, 4_040_005])
        #expect(try sandbox.run("advance", "2M").status == 0)
        let renewed = try transactions(sandbox).filter { $0["productId"] as? String == "market.pro.monthly" }
        #expect(renewed.count >= 3)
        #expect(Self.ms(renewed.dropFirst(2).first?["purchaseDate"]) == expiryBefore + 10 * 86_400_000,
                "the next renewal comes at the extended date")
        #expect(renewed.last?["appAccountToken"] as? String == seen["subscriptionToken"] as? String, "later renewals carry it")
        #expect(renewed.first?["appAccountToken"] == nil, "past transactions keep theirs")

        // Malformed bodies: Apple's 400 without an error code; a method a route does not take: 404
        #expect(error("rawNotJSON") == [400, -1] && error("rawNoToken") == [400, -1])
        #expect(error("rawWrongMethod") == [404, -1])

        // The recorded consumption information decides the refund requests
        let v2 = try sandbox.run("refund-request", coins[21], "--json").json()
        let info = v2["consumptionInfo"] as? [String: Any]
        #expect(info?["version"] as? Int == 2 && info?["consumptionPercentage"] as? Int == 75_000)
        #expect(v2["decisionByConsumptionInfo"] as? String == "decline", "75 % consumed: declined")
        #expect(try sandbox.run("refund-request", coins[21], "--decide", "auto").status == 0)
        #expect(try sandbox.run("refund-request", coins[22], "--decide", "auto").status == 0)
        let after2 = try transactions(sandbox)
        #expect(after2.first { $0["transactionId"] as? String == coins[21] }?["revocationDate"] == nil)
        #expect(after2.first { $0["transactionId"] as? String == coins[22] }?["revocationDate"] != nil, "v1 prefers a grant")
        let kinds2 = try eventKinds(sandbox)
        #expect(kinds2.filter { $0 == "refundRequested" }.count == 2 && kinds2.contains("refundDeclined"))
        #expect(kinds2.filter { $0 == "consumptionInfoReceived" }.count == 2)
        let shown = try sandbox.run("refund-request", coins[21]).stdout
        #expect(shown.contains("declined") && shown.contains("by the consumption information") && shown.contains("75000"))
    }
}
