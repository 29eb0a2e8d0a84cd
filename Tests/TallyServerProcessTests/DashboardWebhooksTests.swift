import Foundation
import Testing

extension ServerProcessTests {
    /// The dashboard's webhook routes (docs/server.md, *Dashboard*) through a real `tally serve` whose one endpoint
    /// refuses every connection and whose retry policy dead-letters after one attempt.
    @Suite struct DashboardWebhooks {
        /// The endpoint as configured: a user, a password and a query that the dashboard must not show.
        static let endpoint = "http://hooks:pa55@127.0.0.1:9/tally?token=s3cret#frag"

        /// A server with that endpoint and a coin purchase posted for `ana`, whose two events (the purchase and the
        /// coins it credits) are both dead-lettered; the newest one's id.
        static func seed(test: String = #function) async throws -> (ServerFixture, String) {
            let fixture = try ServerFixture()
            try fixture.reconfigure {
                $0["webhooks"] = [["url": endpoint, "secret": "dashboard-test-secret", "events": ["*"],
                                   "timeoutSeconds": 2, "retry": ["attempts": 1]]]
            }
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.coins.100", account: "ana")
            #expect(try await fixture.client.postTransaction(jws, for: "ana").status == 200)
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let rows = try await Self.page(fixture, "dead")["deliveries"] as? [[String: Any]] ?? []
                if rows.count == 2, let id = rows.first?["eventId"] as? String { return (fixture, id) }
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            throw HarnessError("the two deliveries were not dead-lettered within 30 s")
        }

        static func page(_ fixture: ServerFixture, _ state: String) async throws -> [String: Any] {
            let reply = try await fixture.client.send("GET", "/v1/dashboard/webhooks?state=\(state)",
                                                      key: fixture.keys.dashboardKey)
            guard reply.status == 200 else { throw HarnessError("GET webhooks answered \(reply.status)") }
            return try reply.json()
        }

        @Test func deadLettersShowWithoutTheEndpointsSecretsAndRetryNeedsTheSecretKey() async throws {
            let (fixture, eventId) = try await Self.seed()
            let dead = try await Self.page(fixture, "dead")
            let rows = try #require(dead["deliveries"] as? [[String: Any]])
            #expect(rows.compactMap { $0["type"] as? String } == ["VIRTUAL_CURRENCY_TRANSACTION", "NON_RENEWING_PURCHASE"],
                    "newest event first: the purchase, then the coins it credits")
            let row = try #require(rows.first)
            #expect(row["appUserId"] as? String == "ana")
            #expect(row["state"] as? String == "dead")
            #expect(row["attempts"] as? Int == 1)
            #expect(row["endpoint"] as? String == "http://127.0.0.1:9/tally", "no user, password, query or fragment")
            #expect(dead["endpoints"] as? [String] == ["http://127.0.0.1:9/tally"])
            let stats = try #require(dead["stats"] as? [String: Any])
            #expect((stats["dead"] as? Int ?? 0) >= 1)
            let text = String(decoding: try await fixture.client.send("GET", "/v1/dashboard/webhooks",
                                                                     key: fixture.keys.dashboardKey).body, as: UTF8.self)
            #expect(!text.contains("s3cret") && !text.contains("pa55"), "the endpoint's secrets stay in the configuration")

            let body = try APIClient.json(["eventId": eventId])
            let byDashboardKey = try await fixture.client.send("POST", "/v1/dashboard/webhooks/retry",
                                                               key: fixture.keys.dashboardKey, body: body)
            #expect(byDashboardKey.status == 403, "the dashboard key only reads")
            let unknown = try await fixture.client.send("POST", "/v1/dashboard/webhooks/retry", key: fixture.keys.secretKey,
                                                        body: try APIClient.json(["eventId": eventId + "x"]))
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "unknown_webhook_event")
            let empty = try await fixture.client.send("POST", "/v1/dashboard/webhooks/retry", key: fixture.keys.secretKey,
                                                      body: try APIClient.json(["eventId": ""]))
            #expect(empty.status == 400)
            let retried = try await fixture.client.send("POST", "/v1/dashboard/webhooks/retry", key: fixture.keys.secretKey,
                                                        body: body)
            #expect(retried.status == 200)
            let answer = try retried.json()
            #expect(answer["eventId"] as? String == eventId)
            #expect((answer["requeued"] as? Int ?? 0) >= 1)
            // Due again, it is tried once more (attempts counted afresh) and dead-lettered again.
            let deadline = Date().addingTimeInterval(30)
            var again: [String: Any] = [:]
            repeat {
                let rows = try await Self.page(fixture, "dead")["deliveries"] as? [[String: Any]] ?? []
                again = rows.first { $0["eventId"] as? String == eventId } ?? [:]
                if again["lastError"] != nil, again["nextAttemptAt"] is NSNull { break }
                try await Task.sleep(nanoseconds: 50_000_000)
            } while Date() < deadline
            #expect(again["state"] as? String == "dead")
            let bad = try await fixture.client.send("GET", "/v1/dashboard/webhooks?state=lost", key: fixture.keys.dashboardKey)
            #expect(bad.status == 400)
        }

        /// The Webhooks page: the counts and the dead letter, no secret of the endpoint, and its Retry button.
        @Test(.enabled(if: BrowserTools.shouldRun, "needs chromium, chromium-driver and selenium"))
        func theWebhooksPageShowsDeadLettersAndRetriesWithTheSecretKey() async throws {
            try #require(BrowserTools.missing == nil, "CI=true: \(BrowserTools.missing ?? "")")
            let (fixture, eventId) = try await Self.seed()
            let screenshots = BrowserTools.screenshots.appendingPathComponent("webhooks")
            try? FileManager.default.removeItem(at: screenshots)
            let (status, text) = try BrowserTools.runScript("dashboard_webhooks_browser.py", [
                fixture.client.base, fixture.keys.dashboardKey, fixture.keys.secretKey, screenshots.path, eventId,
            ])
            #expect(status == 0, "the webhooks page checks failed:\n\(text)")
            for name in ["webhooks", "webhooks-retried"] {
                #expect(FileManager.default.fileExists(atPath: screenshots.appendingPathComponent(name + ".png").path),
                        "screenshot \(name).png")
            }
        }
    }
}
