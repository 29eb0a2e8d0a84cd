import Foundation
import Testing
import TallyCore
import TallySandbox

extension ServerProcessTests {
    /// Reconciliations waiting on an App Store Server API that accepts and never answers: a real `tally serve`
    /// runs at most `limits.maxConcurrentReconciles` (4) of them, refuses the rest at once with 503 and
    /// `Retry-After`, and meanwhile answers transaction posts, Apple's notifications and spends promptly.
    @Suite struct ReconcileConcurrency {
        /// What one reconcile answered, or why it had no answer.
        struct Answer: Sendable {
            var status: Int
            var code: String?
            var retryAfter: String?
        }

        @Test func hangingReconcilesNeitherStallWritesNorRunPastTheirLimit() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let (_, premium) = try market.buySigned("market.premium", account: "alice")
            #expect(try await fixture.client.postTransaction(premium, for: "alice").status == 200)

            let silent = try SilentListener()
            let appStore = try Reconcile.AppStore(in: fixture.directory, authority: fixture.authority, start: Date())
            try appStore.loadKey()
            var api = appStore.configuration
            api["baseURL"] = silent.baseURL
            try fixture.reconfigure { $0["appStoreServerAPI"] = api }

            // Everything posted while the reconciles hang, signed beforehand.
            var posts: [(customer: String, jws: String)] = []
            for index in 0..<30 {
                posts.append(("writer-\(index)", try market.buySigned("market.coins.100", account: "w\(index)").1))
            }
            var notifications: [String] = []
            for index in 0..<11 {
                let coins = try market.buySigned("market.coins.10", account: "n\(index)").1
                notifications.append(try market.sign(ServerNotification(
                    notificationType: .oneTimeCharge, notificationUUID: UUID().uuidString, signedDate: Date(),
                    data: NotificationData(bundleId: "com.example.market", environment: .sandbox,
                                           signedTransactionInfo: coins))))
            }

            // One of each before the reconciles, so what is measured is not the first verification of a chain.
            let (_, warmUp) = try market.buySigned("market.coins.10", account: "warm")
            #expect(try await fixture.client.postTransaction(warmUp, for: "warm").status == 200)
            #expect(try await fixture.client.send("POST", "/v1/notifications/apple",
                                                  body: try APIClient.json(["signedPayload": notifications.removeLast()])).status == 200)
            #expect(try await fixture.client.spend(1, id: "warm", for: "warm").status == 200)

            // 34 reconciles at once, each on a connection and thread of its own (plain sockets: a URLSession with
            // requests outstanding spins a core on Linux, which would slow the server it measures).
            let answers = Locked([Answer]())
            let secretKey = fixture.keys.secretKey, port = fixture.server.port
            for _ in 0..<34 {
                Thread {
                    let reply = try? RawConnection(port: port, readTimeout: 600)
                        .request("POST", APIClient.customerPath("alice") + "/reconcile", key: secretKey)
                    answers.withLock {
                        $0.append(Answer(status: reply?.status ?? 0, code: reply?.errorCode,
                                         retryAfter: reply?.headers["retry-after"]))
                    }
                }.start()
            }
            let started = Date()
            while silent.connectionCount < 4, Date().timeIntervalSince(started) < 30 {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(silent.connectionCount >= 4, "the reconciles reached the App Store Server API")

            // The refusals come back at once (a server without the limit answers none: then this waits 10 s).
            let refusals = Date().addingTimeInterval(10)
            while answers.withLock({ $0.count }) < 30, Date() < refusals { try await Task.sleep(for: .milliseconds(20)) }

            // Writes while they hang: each one given up after 10 s (the old server held them for minutes).
            let writer = APIClient(port: fixture.server.port, keys: fixture.keys, timeout: 10)
            defer { writer.session.finishTasksAndInvalidate() }
            #expect(await writer.isHealthy())  // its connection is open before the clock starts
            var latencies: [String: [Double]] = [:]
            func timed(_ kind: String, _ request: () async throws -> HTTPReply) async -> Int {
                let start = Date()
                let status = (try? await request())?.status ?? 0
                latencies[kind, default: []].append(Date().timeIntervalSince(start) * 1000)
                return status
            }
            var statuses: [Int] = []
            for (index, post) in posts.enumerated() {
                statuses.append(await timed("transaction post") { try await writer.postTransaction(post.jws, for: post.customer) })
                if index < notifications.count {
                    statuses.append(await timed("notification") {
                        try await writer.send("POST", "/v1/notifications/apple",
                                              body: try APIClient.json(["signedPayload": notifications[index]]))
                    })
                }
                if index % 3 == 0 {
                    statuses.append(await timed("spend") {
                        try await writer.spend(1, id: "spend-\(index)", for: post.customer)
                    })
                }
            }
            #expect(statuses.allSatisfy { $0 == 200 }, "every write answered 200 while the reconciles hang: \(statuses)")
            for (kind, values) in latencies.sorted(by: { $0.key < $1.key }) {
                let sorted = values.sorted()
                let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
                let median = sorted[sorted.count / 2]
                print("while 34 reconciles hang: \(values.count) × \(kind): median \(String(format: "%.1f", median)) ms, "
                      + "p99 \(String(format: "%.1f", p99)) ms, max \(String(format: "%.1f", sorted.last ?? 0)) ms "
                      + "(\(values.map { String(format: "%.0f", $0) }.joined(separator: " ")))")
                // Typically a p99 of 10–30 ms here; bounds loose enough for a loaded 2-core machine (the old server
                // answered none of these within 10 s).
                #expect(median < 100 && p99 < 1_000, "\(kind): median \(median) ms, p99 \(p99) ms while reconciles hang")
            }

            // Past the limit, reconciles were refused at once; four still wait on Apple.
            let refused = answers.withLock { $0 }
            #expect(refused.count == 30, "34 reconciles, 4 running: \(refused.map(\.status))")
            #expect(refused.allSatisfy { $0.status == 503 && $0.code == "reconcile_busy" && $0.retryAfter == "5" },
                    "\(refused.map { "\($0.status) \($0.code ?? "-") \($0.retryAfter ?? "-")" })")
            #expect(silent.connectionCount == 4, "only the admitted reconciles asked Apple: \(silent.connectionCount)")
        }
    }
}
