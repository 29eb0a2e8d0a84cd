import Foundation
import Testing
import TallyCore
import TallySandbox

extension ServerProcessTests {
    /// Webhooks end to end (docs/webhooks.md): the real `tally serve` sends the events of real posts to a receiver
    /// on loopback (Tests/TallyServerProcessTests/webhook_receiver.py), which checks each signature with Python's
    /// own `hmac` and each timestamp against five minutes.
    @Suite(.serialized) struct Webhooks {
        /// What each customer does, and the events that makes, in order.
        static let expected = ["INITIAL_PURCHASE", "RENEWAL", "NON_RENEWING_PURCHASE", "VIRTUAL_CURRENCY_TRANSACTION",
                               "VIRTUAL_CURRENCY_TRANSACTION", "REFUND", "VIRTUAL_CURRENCY_TRANSACTION"]

        /// A subscription and its renewal, 100 coins, a spend of 30, the coins refunded: each posted for `account`.
        static func act(_ account: String, _ market: inout MarketStore, _ client: APIClient) async throws {
            let subscription = try market.buy("market.pro.monthly", account: account)
            #expect(try await client.postTransaction(market.signed(subscription), for: account).status == 200)
            let expires = try #require(subscription.expiresDate)
            market.advance(by: SandboxDuration(Int(expires.timeIntervalSince(market.sandbox.now).rounded(.up)) + 1, .second))
            let renewal = try #require(market.sandbox.transactions(account: account)
                .filter { $0.originalTransactionId == subscription.originalTransactionId }
                .max { $0.purchaseDate < $1.purchaseDate })
            #expect(renewal.transactionId != subscription.transactionId, "the sandbox renewed")
            #expect(try await client.postTransaction(market.signed(renewal), for: account).status == 200)
            let (coins, coinsJWS) = try market.buySigned("market.coins.100", account: account)
            #expect(try await client.postTransaction(coinsJWS, for: account).status == 200)
            #expect(try await client.spend(30, id: "\(account)-spend", for: account).status == 200)
            let refunded = try market.refund(coins.transactionId)
            #expect(try await client.postTransaction(market.signed(refunded), for: account).status == 200)
        }

        /// The accepted events' types per customer, in arrival order.
        static func typesByCustomer(_ accepted: [WebhookReceiver.Attempt]) -> [String: [String]] {
            var types: [String: [String]] = [:]
            for attempt in accepted {
                types[attempt.event["appUserId"] as? String ?? "?", default: []].append(attempt.event["type"] as? String ?? "?")
            }
            return types
        }

        /// A server on `store` sending every event to `receiver`; `environment` added to the server's.
        static func fixture(_ store: String, _ receiver: WebhookReceiver, environment: [String: String] = [:],
                            test: String = #function) throws -> ServerFixture {
            let fixture = try ServerFixture.on(store, test: test)
            fixture.environment.merge(environment) { $1 }
            try fixture.reconfigure { $0["webhooks"] = [receiver.configuration()] }
            return fixture
        }

        @Test(arguments: ServerFixture.testedStores)
        func everyEventArrivesSignedAndInOrderPerCustomerAfterTheReceiverRecovers(_ store: String) async throws {
            let receiver = try WebhookReceiver(failFirst: 3)
            let fixture = try Self.fixture(store, receiver)
            var market = try fixture.market(start: Date().addingTimeInterval(-40 * 86_400))
            let customers = ["ana", "ben", "cy"]
            for customer in customers { try await Self.act(customer, &market, fixture.client) }
            let total = customers.count * Self.expected.count
            let accepted = try await receiver.waitForAccepted { $0.count >= total }
            #expect(accepted.count == total)
            let attempts = try receiver.attempts()
            #expect(attempts.prefix(3).allSatisfy { $0.status == 500 }, "the first three attempts failed")
            #expect(attempts.allSatisfy { $0.valid && $0.fresh }, "every signature valid, every timestamp fresh")
            #expect(attempts.allSatisfy { $0.contentType == "application/json" })
            for failed in attempts.prefix(3) {
                #expect(accepted.contains { $0.id == failed.id }, "a failed event came again with the same id")
            }
            let types = Self.typesByCustomer(accepted)
            for customer in customers { #expect(types[customer] == Self.expected, "\(customer): \(types[customer] ?? [])") }
            for attempt in accepted {
                let event = try #require(WebhookEvent(json: Array(attempt.body.utf8)), "\(attempt.body)")
                #expect(event.id == attempt.id, "the header's id is the body's")
                #expect(event.store == "APP_STORE")
                // A spend is the server's own: no App Store transaction, no environment.
                let spend = event.transactionId?.hasSuffix("-spend") ?? false
                #expect(event.environment == (spend ? nil : "Sandbox"), "\(attempt.body)")
                switch event.type {
                case .initialPurchase, .renewal:
                    #expect(event.entitlementIds == ["plus", "pro"])
                    #expect(event.productId == "market.pro.monthly" && event.price != nil && event.currency != nil)
                    #expect(event.expiresAt != nil)
                case .virtualCurrencyTransaction:
                    #expect(event.virtualCurrency.count == 1 && [100, -30, -100].contains(event.virtualCurrency[0].amount))
                default: break
                }
            }
            let metrics = try await fixture.client.send("GET", "/metrics", key: fixture.keys.secretKey).text
            #expect(metrics.contains(#"tally_webhook_attempts_total{result="failed"} 3"#), "\(metrics)")
            #expect(metrics.contains(#"tally_webhook_attempts_total{result="delivered"} \#(total)"#))
            #expect(metrics.contains(#"tally_webhook_deliveries{state="delivered"} \#(total)"#))
            #expect(metrics.contains(#"tally_webhook_deliveries{state="pending"} 0"#))
            #expect(metrics.contains("tally_webhook_oldest_pending_age_seconds 0"))
        }

        /// `tally serve webhooks …` beside the running server, on its data directory.
        static func webhooksCommand(_ fixture: ServerFixture, _ arguments: [String]) throws -> (status: Int32, output: String) {
            try runCommand(TestPaths.tally.path, ["serve", "webhooks"] + arguments
                + ["--data", fixture.dataDirectory.path, "--config", fixture.configFile.path])
        }

        @Test func theCommandListsTheDeadLetterRetriesItReplaysWithTheSameIdsAndQueuesATest() async throws {
            let receiver = try WebhookReceiver(failFirst: 2)
            let fixture = try ServerFixture()
            try fixture.reconfigure { $0["webhooks"] = [receiver.configuration(attempts: 2, delay: 0.1, maxDelay: 0.1)] }
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "fay")
            #expect(try await fixture.client.postTransaction(jws, for: "fay").status == 200)
            // Both attempts fail: the delivery is dead.
            var dead: [[String: Any]] = []
            let deadline = Date().addingTimeInterval(30)
            while dead.isEmpty, Date() < deadline {
                let (status, output) = try Self.webhooksCommand(fixture, ["list", "--filter", "dead", "--json"])
                #expect(status == 0, "\(output)")
                let listed = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
                dead = listed?["deliveries"] as? [[String: Any]] ?? []
                if dead.isEmpty { try await Task.sleep(nanoseconds: 100_000_000) }
            }
            let id = try #require(dead.first?["id"] as? String)
            #expect(dead.first?["attempts"] as? Int == 2)
            #expect(dead.first?["lastError"] as? String == "answered 500")
            #expect(try receiver.attempts().count == 2)
            let retried = try Self.webhooksCommand(fixture, ["retry", id])
            #expect(retried.status == 0, "\(retried.output)")
            try await receiver.waitForAccepted(timeout: 30) { $0.map(\.id) == [id] }
            #expect(try Self.webhooksCommand(fixture, ["retry", "evt_unknown"]).status == 1)
            let replayed = try Self.webhooksCommand(fixture, ["replay", "--since", "2000-01-01T00:00:00Z", "--json"])
            #expect(replayed.output.contains(#""replayed":1"#), "\(replayed.output)")
            try await Self.waitForAttempts(receiver, 4)
            #expect(try receiver.attempts().suffix(2).allSatisfy { $0.id == id && $0.status == 200 }, "replayed with its id")
            let tested = try Self.webhooksCommand(fixture, ["test", "--json"])
            #expect(tested.status == 0, "\(tested.output)")
            let accepted = try await receiver.waitForAccepted(timeout: 30) { $0.count == 2 }
            #expect(accepted.last?.event["type"] as? String == "TEST" && accepted.last?.valid == true)
            let (status, text) = try Self.webhooksCommand(fixture, ["list"])
            #expect(status == 0 && text.contains("0 pending (0 failing), 0 dead, 2 delivered"), "\(text)")
        }

        /// Waits (at most 30 s) until the receiver logged `count` attempts.
        static func waitForAttempts(_ receiver: WebhookReceiver, _ count: Int) async throws {
            let deadline = Date().addingTimeInterval(30)
            while try receiver.attempts().count < count {
                guard Date() < deadline else { throw HarnessError("only \(try receiver.attempts().count) attempts") }
                try await Task.sleep(nanoseconds: 50_000_000)
            }
        }

        @Test func aReceiverThatNeverAnswersOneCustomerHoldsUpNeitherThePostsNorTheOtherCustomers() async throws {
            let receiver = try WebhookReceiver(hangUser: "hal")
            let fixture = try Self.fixture("sqlite", receiver)
            var market = try fixture.market()
            for customer in ["hal", "ivy", "jo", "kai", "lu"] {
                for product in ["market.premium", "market.removeads"] {
                    let (_, jws) = try market.buySigned(product, account: customer)
                    // A 200 while hal's receiver hangs for an hour: no post waits for a send.
                    #expect(try await fixture.client.postTransaction(jws, for: customer).status == 200)
                }
            }
            let accepted = try await receiver.waitForAccepted { $0.count >= 8 }
            #expect(Set(accepted.compactMap { $0.event["appUserId"] as? String }) == ["ivy", "jo", "kai", "lu"])
            let hung = try receiver.attempts().filter(\.hung)
            #expect(!hung.isEmpty && Set(hung.map(\.id)).count == 1, "only hal's first event is tried; the second waits behind it")
            #expect(hung.allSatisfy { $0.event["appUserId"] as? String == "hal" })
        }

        @Test func aRedirectIsAFailedAttemptNotFollowed() async throws {
            let receiver = try WebhookReceiver(redirectFirst: 1)
            let fixture = try Self.fixture("sqlite", receiver)
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "ned")
            #expect(try await fixture.client.postTransaction(jws, for: "ned").status == 200)
            try await receiver.waitForAccepted { $0.count == 1 }
            let attempts = try receiver.attempts()
            #expect(attempts.map(\.status) == [307, 200], "the 307 failed the attempt; the retry was delivered")
            #expect(attempts.allSatisfy { $0.path == "/hooks" }, "never followed to /followed")
            #expect(Set(attempts.map(\.id)).count == 1)
        }

        /// The events' ids in the server's SQLite file, oldest first (read by another process while the server waits).
        static func storedEventIds(_ fixture: ServerFixture) throws -> [String] {
            let (status, output) = try runCommand("/usr/bin/env", ["python3", "-c", """
                import sqlite3, sys
                c = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)
                for row in c.execute('SELECT event_id FROM webhook_events ORDER BY sequence'): print(row[0])
                """, fixture.dataDirectory.appendingPathComponent("tally.sqlite").path])
            guard status == 0 else { throw HarnessError("reading the outbox failed: \(output)") }
            return output.split(separator: "\n").map(String.init)
        }

        /// Waits (at most 30 s) for the server to say it paused at `pause`.
        static func waitForPause(_ fixture: ServerFixture, _ pause: String) throws {
            let said = fixture.server.stderr.wait(until: Date().addingTimeInterval(30)) {
                $0.contains("webhook paused \(pause)") ? true : nil
            }
            guard said == true else { throw HarnessError("the server never paused \(pause): \(fixture.server.stderr.text)") }
        }

        @Test func aServerKilledBetweenCommitAndSendSendsTheEventAfterItsRestartWithTheSameId() async throws {
            let receiver = try WebhookReceiver()
            let fixture = try Self.fixture("sqlite", receiver, environment: ["TALLY_WEBHOOK_PAUSE": "after-commit"])
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "dee")
            #expect(try await fixture.client.postTransaction(jws, for: "dee").status == 200)
            try Self.waitForPause(fixture, "after-commit")
            let stored = try Self.storedEventIds(fixture)
            #expect(stored.count == 1, "the post committed its event")
            #expect(try receiver.attempts().isEmpty, "paused before any send")
            try fixture.server.killNow()
            fixture.environment["TALLY_WEBHOOK_PAUSE"] = nil
            try fixture.restart()
            let accepted = try await receiver.waitForAccepted { !$0.isEmpty }
            #expect(accepted.map(\.id) == stored)
            #expect(accepted.first?.event["type"] as? String == "NON_RENEWING_PURCHASE")
        }

        @Test func aServerKilledDuringASendSendsTheEventAgainWithTheSameIdAndTheReceiverDedupes() async throws {
            let receiver = try WebhookReceiver()
            let fixture = try Self.fixture("sqlite", receiver, environment: ["TALLY_WEBHOOK_PAUSE": "during-send"])
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "eve")
            #expect(try await fixture.client.postTransaction(jws, for: "eve").status == 200)
            try Self.waitForPause(fixture, "during-send")
            let first = try receiver.attempts()
            #expect(first.count == 1 && first.first?.status == 200, "the receiver took it; the server died before noting so")
            try fixture.server.killNow()
            fixture.environment["TALLY_WEBHOOK_PAUSE"] = nil
            try fixture.restart()
            try await Self.waitForAttempts(receiver, 2)
            let attempts = try receiver.attempts()
            #expect(attempts.count == 2, "sent again after the restart")
            #expect(Set(attempts.map(\.id)).count == 1, "with the same id")
            #expect(try receiver.accepted().count == 1, "deduplicated by id: exactly once in effect")
        }

        @Test(.enabled(if: PostgresCluster.canRun))
        func anotherServerTakesOverADeliveryWhoseServerDiedMidSendOnceItsLeaseEnds() async throws {
            let receiver = try WebhookReceiver()
            let pair = try ServerPair(cluster: try PostgresCluster.shared(for: #function))
            pair.fixture.environment["TALLY_WEBHOOK_PAUSE"] = "during-send"
            try pair.reconfigure { $0["webhooks"] = [receiver.configuration(timeout: 1)] }
            try pair.second.killNow()
            var market = try pair.fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "max")
            #expect(try await pair.fixture.client.postTransaction(jws, for: "max").status == 200)
            try Self.waitForPause(pair.fixture, "during-send")
            try pair.fixture.server.killNow()
            let sent = try receiver.attempts()
            #expect(sent.count == 1 && sent.first?.status == 200)
            pair.fixture.environment["TALLY_WEBHOOK_PAUSE"] = nil
            try pair.restartSecond()
            // The dead server's lease (timeoutSeconds + 5 s) ends; the other server claims the delivery and sends it.
            try await Self.waitForAttempts(receiver, 2)
            let attempts = try receiver.attempts()
            #expect(attempts.count == 2 && Set(attempts.map(\.id)).count == 1, "sent again, with the same id")
            #expect(try receiver.accepted().count == 1)
        }

        @Test(.enabled(if: PostgresCluster.canRun))
        func twoServersOnOnePostgreSQLDeliverEachEventOnceUnderConcurrentLoad() async throws {
            let receiver = try WebhookReceiver()
            let pair = try ServerPair(cluster: try PostgresCluster.shared(for: #function))
            try pair.reconfigure { $0["webhooks"] = [receiver.configuration()] }
            let market = try pair.fixture.market()
            let customers = (0..<40).map { "load-\($0)" }
            var signed: [(String, String)] = []
            var sandbox = market
            for customer in customers {
                let (_, jws) = try sandbox.buySigned("market.coins.100", account: customer)
                signed.append((customer, jws))
            }
            let clients = pair.clients
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for (index, (customer, jws)) in signed.enumerated() {
                    group.addTask { try await clients[index % 2].postTransaction(jws, for: customer).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 200 })
            let total = customers.count * 2
            let accepted = try await receiver.waitForAccepted { $0.count >= total }
            #expect(accepted.count == total)
            let attempts = try receiver.attempts()
            #expect(attempts.count == total, "no event was sent twice: \(attempts.count) attempts for \(total) events")
            let types = Self.typesByCustomer(accepted)
            for customer in customers {
                #expect(types[customer] == ["NON_RENEWING_PURCHASE", "VIRTUAL_CURRENCY_TRANSACTION"], "\(customer)")
            }
            #expect(attempts.allSatisfy { $0.valid && $0.fresh })
        }
    }
}
