import Foundation
import Testing

extension ServerProcessTests {
    /// `CONSUMPTION_REQUEST` answered end to end: `tally sandbox serve` delivers the notification to a real
    /// `tally serve`, which sends Send Consumption Information back to the sandbox's App Store Server API,
    /// once, from what its ledger says.
    @Suite struct Consumption {
        private static func transactionId(_ appStore: Reconcile.AppStore, product: String) throws -> (String, String) {
            let entry = try #require(try appStore.transactions().last {
                ($0["transaction"] as? [String: Any])?["productId"] as? String == product
            })
            let transaction = try #require(entry["transaction"] as? [String: Any])
            return (try #require(transaction["transactionId"] as? String), try #require(entry["signedTransactionInfo"] as? String))
        }

        /// The consumption information the sandbox received for `transactionId`, once it came (20 s at most).
        private static func received(_ appStore: Reconcile.AppStore, _ transactionId: String) async throws -> [String: Any]? {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                let shown = try JSONSerialization.jsonObject(with: Data(try appStore.tally(["refund-request", transactionId, "--json"]).utf8))
                if let info = (shown as? [String: Any])?["consumptionInfo"] as? [String: Any] { return info }
                try await Task.sleep(for: .milliseconds(200))
            }
            return nil
        }

        private func start(_ fixture: ServerFixture, consumption: [String: Any]?) throws -> Reconcile.AppStore {
            let appStore = try Reconcile.AppStore(in: fixture.directory, authority: fixture.authority, start: Date())
            try appStore.start()
            var api = appStore.configuration
            if let consumption { api["consumptionInformation"] = consumption }
            try fixture.reconfigure {
                $0["clock"] = ["sandboxURL": appStore.baseURL]
                $0["appStoreServerAPI"] = api
            }
            try appStore.tally(["set", "notification-url", "http://127.0.0.1:\(fixture.server.port)/v1/notifications/apple"])
            return appStore
        }

        @Test func aRefundRequestForSpentCoinsIsAnsweredFromTheLedgerOnceAndDeclined() async throws {
            let fixture = try ServerFixture()
            let appStore = try start(fixture, consumption: ["customerConsented": true])
            try appStore.tally(["buy", "market.coins.100"])
            let (coins, jws) = try Self.transactionId(appStore, product: "market.coins.100")
            #expect(try await fixture.client.postTransaction(jws, for: "gina").status == 200)
            #expect(try await fixture.client.spend(60, id: "sword", for: "gina").status == 200)

            try appStore.tally(["refund-request", coins, "--reason", "unsatisfied-with-purchase"])
            let info = try #require(try await Self.received(appStore, coins), "no consumption information reached the sandbox")
            #expect(info["version"] as? Int == 2)
            #expect(info["deliveryStatus"] as? String == "DELIVERED")
            #expect(info["consumptionPercentage"] as? Int == 60_000, "60 of its 100 coins were spent: \(info)")
            #expect(info["refundPreference"] == nil)
            let body = try JSONSerialization.jsonObject(with: Data((info["body"] as? String ?? "").utf8)) as? [String: Any]
            #expect(body?["customerConsented"] as? Bool == true && body?["sampleContentProvided"] as? Bool == false)

            let sentLine = "tally_consumption_answers_total{status=\"sent\"} 1"
            // The server counts the answer once Apple's 202 is back, a moment after the sandbox has it.
            var counted = false
            for _ in 0..<100 where !counted {
                let metrics = try await fixture.client.send("GET", "/metrics", key: fixture.keys.secretKey)
                counted = String(decoding: metrics.body, as: UTF8.self).contains(sentLine)
                if !counted { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(counted, "the sent answer was never counted in /metrics")
            // The answer is durable: a restarted server, which answers what is open at start, does not send it again.
            // A second request, made after the restart, is answered by a later round than the start's: once it has
            // arrived and is the one answer the new process counted, the first was not sent again.
            try fixture.server.killNow()
            try fixture.restart()
            try appStore.tally(["set", "notification-url", "http://127.0.0.1:\(fixture.server.port)/v1/notifications/apple"])
            try appStore.tally(["buy", "market.coins.100"])
            let (second, secondJWS) = try Self.transactionId(appStore, product: "market.coins.100")
            #expect(try await fixture.client.postTransaction(secondJWS, for: "gina").status == 200)
            try appStore.tally(["refund-request", second, "--reason", "unsatisfied-with-purchase"])
            _ = try #require(try await Self.received(appStore, second), "the request made after the restart was not answered")
            var counts = ""
            for _ in 0..<100 where counts.isEmpty {
                let metrics = String(decoding: try await fixture.client.send("GET", "/metrics", key: fixture.keys.secretKey).body, as: UTF8.self)
                counts = metrics.split(separator: "\n").first { $0.hasPrefix("tally_consumption_answers_total{status=\"sent\"}") }.map(String.init) ?? ""
                if counts.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(counts == sentLine, "the restarted server sent only the new request's answer: \(counts)")
            let shown = try JSONSerialization.jsonObject(with: Data(try appStore.tally(["refund-request", coins, "--json"]).utf8))
            let again = (shown as? [String: Any])?["consumptionInfo"] as? [String: Any]
            #expect(again?["receivedDate"] as? String == info["receivedDate"] as? String, "sent once")

            try appStore.tally(["refund-request", coins, "--decide", "auto"])
            let decided = try appStore.transactions().first {
                ($0["transaction"] as? [String: Any])?["transactionId"] as? String == coins
            }
            #expect((decided?["transaction"] as? [String: Any])?["revocationDate"] == nil,
                    "consumed 60%: the sandbox's rule declines")
        }

        @Test func unspentCoinsAreReportedUnconsumedAndAConfiguredPreferenceIsSent() async throws {
            let fixture = try ServerFixture()
            let appStore = try start(fixture, consumption: ["customerConsented": true, "refundPreference": "GRANT_FULL",
                                                            "sampleContentProvided": true])
            try appStore.tally(["buy", "market.coins.10"])
            let (coins, jws) = try Self.transactionId(appStore, product: "market.coins.10")
            #expect(try await fixture.client.postTransaction(jws, for: "hal").status == 200)
            try appStore.tally(["refund-request", coins, "--reason", "unintended-purchase"])
            let info = try #require(try await Self.received(appStore, coins))
            #expect(info["consumptionPercentage"] as? Int == 0 && info["refundPreference"] as? String == "GRANT_FULL", "\(info)")
            let body = try JSONSerialization.jsonObject(with: Data((info["body"] as? String ?? "").utf8)) as? [String: Any]
            #expect(body?["sampleContentProvided"] as? Bool == true)
        }

        @Test func version1SendsTheStatusTenureAndLifetimeBands() async throws {
            let fixture = try ServerFixture()
            let appStore = try start(fixture, consumption: ["customerConsented": true, "version": 1])
            try appStore.tally(["buy", "market.coins.100"])
            let (coins, jws) = try Self.transactionId(appStore, product: "market.coins.100")
            #expect(try await fixture.client.postTransaction(jws, for: "jan").status == 200)
            #expect(try await fixture.client.spend(100, id: "all", for: "jan").status == 200)
            let bought = try #require(try appStore.transactions().last?["transaction"] as? [String: Any])
            try appStore.tally(["refund-request", coins, "--reason", "unsatisfied-with-purchase"])
            let info = try #require(try await Self.received(appStore, coins))
            #expect(info["version"] as? Int == 1 && info["consumptionStatus"] as? Int == 3, "all 100 coins spent: \(info)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data((info["body"] as? String ?? "").utf8)) as? [String: Any])
            #expect(body["accountTenure"] as? Int == 1, "bought just now: 0–3 days")
            // The band the sandbox's own price for the purchase falls in (USD milliunits), or undeclared without one.
            let price = (bought["price"] as? Int).map { Decimal($0) / 1000 }
            let expected = bought["currency"] as? String == "USD" ? (price.map { $0 == 0 ? 1 : $0 < 50 ? 2 : 3 } ?? 0) : 0
            #expect(body["lifetimeDollarsPurchased"] as? Int == expected, "\(body) for \(bought)")
            #expect(body["lifetimeDollarsRefunded"] as? Int == (expected == 0 ? 0 : 1))
            #expect(body["platform"] as? Int == 1 && body["deliveryStatus"] as? Int == 0)
        }

        /// Without `consumptionInformation` the server runs no responder: once the notification is stored, nothing
        /// has been sent; the request is kept open, and the same server configured with consent answers it at start.
        @Test func withoutConsentInTheConfigurationNothingIsSentUntilConsentIsConfigured() async throws {
            let fixture = try ServerFixture()
            let appStore = try start(fixture, consumption: nil)
            try appStore.tally(["buy", "market.coins.10"])
            let (coins, jws) = try Self.transactionId(appStore, product: "market.coins.10")
            #expect(try await fixture.client.postTransaction(jws, for: "ivy").status == 200)
            try appStore.tally(["refund-request", coins, "--reason", "other"])
            // The notification reaches the server (its history shows it) and no answer follows.
            let deadline = Date().addingTimeInterval(20)
            var types: [String] = []
            while Date() < deadline, !types.contains("CONSUMPTION_REQUEST") {
                types = JSONFields.items(try await fixture.client.history("ivy"), kind: "notification").compactMap { $0["type"] as? String }
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(types.contains("CONSUMPTION_REQUEST"), "\(types)")
            let shown = try JSONSerialization.jsonObject(with: Data(try appStore.tally(["refund-request", coins, "--json"]).utf8))
            #expect((shown as? [String: Any])?["consumptionInfo"] == nil)

            var api = appStore.configuration
            api["consumptionInformation"] = ["customerConsented": true]
            try fixture.reconfigure { $0["appStoreServerAPI"] = api }
            let info = try #require(try await Self.received(appStore, coins), "the open request was never answered")
            let body = try JSONSerialization.jsonObject(with: Data((info["body"] as? String ?? "").utf8)) as? [String: Any]
            #expect(body?["customerConsented"] as? Bool == true, "answered under the consent configured now: \(info)")
        }

        @Test func consentMustBeStatedToAnswer() throws {
            let fixture = try ServerFixture()
            let appStore = try Reconcile.AppStore(in: fixture.directory, authority: fixture.authority, start: Date())
            var api = appStore.configuration
            api["baseURL"] = "http://127.0.0.1:9"
            api["consumptionInformation"] = ["customerConsented": false]
            #expect(throws: (any Error).self) { try fixture.reconfigure { $0["appStoreServerAPI"] = api } }
            api["consumptionInformation"] = ["customerConsented": true, "refundPreference": "PLEASE"]
            #expect(throws: (any Error).self) { try fixture.reconfigure { $0["appStoreServerAPI"] = api } }
            api["consumptionInformation"] = ["customerConsented": true, "version": 3]
            #expect(throws: (any Error).self) { try fixture.reconfigure { $0["appStoreServerAPI"] = api } }
        }
    }
}
