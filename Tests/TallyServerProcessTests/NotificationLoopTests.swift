import Foundation
import Testing
import TallyCore

extension ServerProcessTests {
    /// The whole loop with real processes: `tally sandbox serve` delivers App Store Server Notifications V2 to a
    /// real `tally serve` (whose clock follows the sandbox's), and the server's state follows a subscription
    /// through renewal, billing retry, recovery and refund while the app posts only the first purchase.
    @Suite struct NotificationLoop {
        /// The customer's first subscription, read until `condition` holds or 20 s pass.
        private func waitFor(_ fixture: ServerFixture, _ what: String, customer: String = "dave",
                             _ condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
            let deadline = Date().addingTimeInterval(20)
            var last: [String: Any] = [:]
            while Date() < deadline {
                last = try await fixture.client.customer(customer)
                if condition(last) { return last }
                try await Task.sleep(for: .milliseconds(200))
            }
            Issue.record("\(what): the server's state did not follow within 20 s: \(last)")
            return last
        }

        private static func subscription(_ state: [String: Any]) -> [String: Any] {
            (state["subscriptions"] as? [[String: Any]])?.first ?? [:]
        }

        @Test func theServerFollowsTheSandboxsNotificationsWithoutTheApp() async throws {
            let fixture = try ServerFixture()
            let appStore = try Reconcile.AppStore(in: fixture.directory, authority: fixture.authority, start: Date())
            try appStore.start()
            try fixture.reconfigure { $0["clock"] = ["sandboxURL": appStore.baseURL] }
            try appStore.tally(["set", "notification-url", "http://127.0.0.1:\(fixture.server.port)/v1/notifications/apple"])
            try appStore.tally(["buy", "market.pro.monthly"])
            let first = try #require(try appStore.transactions().first?["signedTransactionInfo"] as? String)
            #expect(try await fixture.client.postTransaction(first, for: "dave").status == 200)
            let trialEnd = Self.subscription(try await fixture.client.customer("dave"))["expiresDate"] as? String

            try appStore.tally(["advance", "8d"])                      // the trial week ends: DID_RENEW
            let renewed = try await waitFor(fixture, "DID_RENEW") {
                let sub = Self.subscription($0)
                return sub["status"] as? String == "subscribed" && sub["expiresDate"] as? String != trialEnd
            }
            #expect(JSONFields.features(renewed).contains("pro"))

            try appStore.tally(["set", "billing-issue", "on"])
            try appStore.tally(["advance", "1M"])                      // the renewal fails: DID_FAIL_TO_RENEW
            let retrying = try await waitFor(fixture, "DID_FAIL_TO_RENEW") {
                Self.subscription($0)["status"] as? String == "inBillingRetry"
            }
            #expect(!JSONFields.features(retrying).contains("pro"), "billing retry without grace ends access")

            try appStore.tally(["set", "billing-issue", "off"])        // DID_RENEW / BILLING_RECOVERY
            let recovered = try await waitFor(fixture, "BILLING_RECOVERY") {
                Self.subscription($0)["status"] as? String == "subscribed"
            }
            #expect(JSONFields.features(recovered).contains("pro"))

            let latest = try #require(try appStore.transactions().last?["transaction"] as? [String: Any])
            try appStore.tally(["refund", try #require(latest["transactionId"] as? String)])   // REFUND
            let refunded = try await waitFor(fixture, "REFUND") { Self.subscription($0)["status"] as? String == "revoked" }
            #expect(!JSONFields.features(refunded).contains("pro"))

            let items = try await fixture.client.history("dave")
            let notifications = JSONFields.items(items, kind: "notification").compactMap { $0["type"] as? String }
            #expect(Set(notifications).isSuperset(of: ["SUBSCRIBED", "DID_RENEW", "DID_FAIL_TO_RENEW", "REFUND"]),
                    "\(notifications)")
            #expect(JSONFields.items(items, kind: "transaction").count >= 3, "the app posted only the first")
        }

        /// A refund reversed before the sandbox clock moves: the REFUND_REVERSED copy is signed 1 ms after the
        /// refund's (never at the same millisecond, where the server keeps the revoked copy), so the server gives
        /// the purchase back.
        @Test func aRefundReversedAtTheSameSandboxInstantGivesThePurchaseBack() async throws {
            let fixture = try ServerFixture()
            let appStore = try Reconcile.AppStore(in: fixture.directory, authority: fixture.authority, start: Date())
            try appStore.start()
            try fixture.reconfigure { $0["clock"] = ["sandboxURL": appStore.baseURL] }
            try appStore.tally(["set", "notification-url", "http://127.0.0.1:\(fixture.server.port)/v1/notifications/apple"])
            try appStore.tally(["buy", "market.premium"])
            let bought = try #require(try appStore.transactions().first)
            let jws = try #require(bought["signedTransactionInfo"] as? String)
            let id = try #require((bought["transaction"] as? [String: Any])?["transactionId"] as? String)
            #expect(try await fixture.client.postTransaction(jws, for: "erin").status == 200)

            try appStore.tally(["refund", id])                                        // REFUND
            _ = try await waitFor(fixture, "REFUND", customer: "erin") { !JSONFields.features($0).contains("premium") }
            try appStore.tally(["refund-reverse", id])                                // REFUND_REVERSED, same instant
            let restored = try await waitFor(fixture, "REFUND_REVERSED", customer: "erin") {
                JSONFields.features($0).contains("premium")
            }
            #expect(JSONFields.features(restored).contains("premium"))
        }

        @Test func whileTheServerMissedItsNotificationsABackfillBringsItLevelOnce() async throws {
            let fixture = try ServerFixture()
            let start = Date()
            let appStore = try Reconcile.AppStore(in: fixture.directory, authority: fixture.authority, start: start)
            try appStore.start()
            try fixture.reconfigure {
                $0["clock"] = ["sandboxURL": appStore.baseURL]
                $0["appStoreServerAPI"] = appStore.configuration
            }
            // Every live delivery fails: nothing listens on port 9 (the server is "down" for Apple).
            try appStore.tally(["set", "notification-url", "http://127.0.0.1:9/v1/notifications/apple"])
            try appStore.tally(["buy", "market.pro.monthly"])
            let first = try #require(try appStore.transactions().first?["signedTransactionInfo"] as? String)
            #expect(try await fixture.client.postTransaction(first, for: "erin").status == 200)
            try appStore.tally(["advance", "8d"])                      // DID_RENEW, never delivered
            try await Task.sleep(for: .seconds(1.2))                   // the server's clock follows every half second
            let before = try await fixture.client.customer("erin")
            #expect(!JSONFields.features(before).contains("pro"), "the server missed the renewal: \(before)")

            try fixture.server.killNow()
            let since = ISO8601DateFormatter().string(from: start.addingTimeInterval(-86_400))
            let arguments = ["serve", "backfill", "--data", fixture.dataDirectory.path, "--config", fixture.configFile.path,
                             "--since", since, "--json"]
            let filled = try runCommand(TestPaths.tally.path, arguments)
            #expect(filled.status == 0, "\(filled.output)")
            let summary = try JSONSerialization.jsonObject(with: Data(filled.output.utf8)) as? [String: Any]
            #expect((summary?["applied"] as? Int ?? 0) >= 1, "the DID_RENEW (and SUBSCRIBED's renewal info): \(filled.output)")
            #expect((summary?["notifications"] as? Int ?? 0) >= 2)

            let again = try runCommand(TestPaths.tally.path, arguments)
            let second = try? JSONSerialization.jsonObject(with: Data(again.output.utf8)) as? [String: Any]
            #expect(again.status == 0 && second?["applied"] as? Int == 0, "resumed from its cursor: \(again.output)")

            try fixture.restart()
            let after = try await fixture.client.customer("erin")
            #expect(JSONFields.features(after).contains("pro"), "\(after)")
            let types = JSONFields.items(try await fixture.client.history("erin"), kind: "notification")
                .compactMap { $0["type"] as? String }
            #expect(types.filter { $0 == "DID_RENEW" }.count == 1, "applied once: \(types)")
        }

        @Test func aPeriodicBackfillInsideTheServerCatchesUpByItself() async throws {
            let fixture = try ServerFixture()
            let appStore = try Reconcile.AppStore(in: fixture.directory, authority: fixture.authority, start: Date())
            try appStore.start()
            var api = appStore.configuration
            api["backfillIntervalSeconds"] = 1
            try fixture.reconfigure {
                $0["clock"] = ["sandboxURL": appStore.baseURL]
                $0["appStoreServerAPI"] = api
            }
            try appStore.tally(["set", "notification-url", "http://127.0.0.1:9/v1/notifications/apple"])  // never delivered
            try appStore.tally(["buy", "market.pro.monthly"])
            let first = try #require(try appStore.transactions().first?["signedTransactionInfo"] as? String)
            #expect(try await fixture.client.postTransaction(first, for: "fay").status == 200)
            let trialEnd = Self.subscription(try await fixture.client.customer("fay"))["expiresDate"] as? String
            try appStore.tally(["advance", "8d"])
            let state = try await waitFor(fixture, "the periodic back-fill", customer: "fay") {
                let sub = Self.subscription($0)
                return sub["status"] as? String == "subscribed" && sub["expiresDate"] as? String != trialEnd
            }
            #expect(JSONFields.features(state).contains("pro"), "\(fixture.server.stderr.text)")
        }
    }
}

extension ServerProcessTests.Durability {
    /// A SIGKILL during a burst of 2,000 notifications (REFUNDs of coin purchases): every one answered 200 is
    /// applied after the restart; Apple's retries of all of them then apply each of the others exactly once.
    @Test func everyAcknowledgedNotificationSurvivesASIGKILLAndRetriesApplyTheRestOnce() async throws {
        let fixture = try ServerFixture()
        var market = try fixture.market()
        let customers = (0..<4).map { "refunded-\($0)" }
        var bought: [(customer: String, transaction: TallyCore.StoreTransaction)] = []
        var postLanes: [RequestBurst.Lane] = []
        for (index, customer) in customers.enumerated() {
            var posts: [(String, String)] = []
            for _ in 0..<500 {
                let (transaction, jws) = try market.buySigned("market.coins.10", account: "account-\(index)")
                bought.append((customer, transaction))
                posts.append((transaction.transactionId, jws))
            }
            postLanes.append(try .transactions(customer, posts))
        }
        let posting = RequestBurst(lanes: postLanes, port: fixture.server.port, key: fixture.keys.publicKey)
        await posting.finished()
        #expect(posting.acknowledgedCount == 2_000)

        var notifications: [(uuid: String, signedPayload: String)] = []
        for (_, transaction) in bought {
            let refunded = try market.refund(transaction.transactionId)
            let uuid = UUID().uuidString.lowercased()
            let notification = ServerNotification(
                notificationType: .refund, notificationUUID: uuid, version: "2.0", signedDate: refunded.signedDate,
                data: NotificationData(bundleId: "com.example.market", environment: .sandbox,
                                       signedTransactionInfo: try market.signed(refunded)))
            notifications.append((uuid, try market.sign(notification)))
        }
        let lanes = try (0..<16).map { lane in
            try RequestBurst.Lane.notifications("lane-\(lane)", Array(notifications[(lane * 125)..<((lane + 1) * 125)]))
        }
        let burst = RequestBurst(lanes: lanes, port: fixture.server.port, key: fixture.keys.publicKey)
        try await burst.waitForAcknowledged(400)
        try fixture.server.killNow()
        await burst.finished()
        #expect(burst.unexpected.current.isEmpty, "\(burst.unexpected.current.prefix(3))")
        let acknowledged = Set(burst.acknowledged.current.values.flatMap { $0 })
        #expect(acknowledged.count >= 400 && acknowledged.count < 2_000, "\(acknowledged.count) acknowledged")

        try fixture.restart()
        var applied: Set<String> = []
        for customer in customers {
            let items = JSONFields.items(try await fixture.client.history(customer), kind: "notification")
            applied.formUnion(items.compactMap { $0["notificationUUID"] as? String })
        }
        #expect(acknowledged.isSubset(of: applied), "acknowledged but lost: \(acknowledged.subtracting(applied).prefix(3))")

        // Apple retries every notification it did not get a 200 for (here: all of them, once more).
        let retries = RequestBurst(lanes: lanes, port: fixture.server.port, key: fixture.keys.publicKey)
        await retries.finished()
        #expect(retries.acknowledgedCount == 2_000, "\(retries.unexpected.current.prefix(3))")
        var uuids: [String] = []
        for customer in customers {
            let items = JSONFields.items(try await fixture.client.history(customer), kind: "notification")
            uuids += items.compactMap { $0["notificationUUID"] as? String }
            let state = try await fixture.client.customer(customer)
            #expect(JSONFields.balance(state) == 0, "\(customer): every coin purchase refunded once")
        }
        #expect(uuids.count == 2_000 && Set(uuids).count == 2_000, "each applied exactly once: \(uuids.count)")
    }
}
