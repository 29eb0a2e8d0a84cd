import Foundation
import TallyCore
import TallySandbox
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ServerProcessTests {
    /// PostgreSQL-backed servers under failure: a server SIGKILLed, PostgreSQL restarted, PostgreSQL down at
    /// start, a database from a newer Tally. The tests that stop PostgreSQL use a private cluster.
    @Suite struct PostgresFailures {
        /// The PostgreSQL schema version this build migrates to (TallyPostgres's `PostgresSchema.currentVersion`):
        /// 1, everything the SQLite store held after its fourth migration; 2, the consumption answers; 3, the
        /// dashboard's columns; 4, the kept encoded states; 5, the facts version.
        static let schemaVersion = "14"

        /// What one posted purchase came to.
        struct Posted: Sendable {
            var transactionId: String
            var server: Int
            /// The HTTP status; nil when the connection failed (the server was gone).
            var status: Int?
        }

        /// Posts every JWS (`index % 2` picks the server), at most `width` in flight; `during` runs once
        /// `trigger` posts have been answered, beside the rest.
        static func post(_ purchases: [(String, String)], for user: String, to clients: [APIClient], width: Int = 16,
                         trigger: Int, during: @escaping @Sendable () async throws -> Void) async throws -> [Posted] {
            let answered = Locked(0)
            return try await withThrowingTaskGroup(of: Posted?.self) { group in
                group.addTask {
                    while answered.current < trigger { try await Task.sleep(for: .milliseconds(5)) }
                    try await during()
                    return nil
                }
                var results: [Posted] = []
                var next = 0
                func add() {
                    guard next < purchases.count else { return }
                    let (id, jws) = purchases[next], server = next % 2
                    next += 1
                    group.addTask {
                        let status = try? await clients[server].postTransaction(jws, for: user).status
                        answered.withLock { $0 += 1 }
                        return Posted(transactionId: id, server: server, status: status)
                    }
                }
                for _ in 0..<width { add() }
                while let result = try await group.next() {
                    if let result { results.append(result) }
                    add()
                }
                return results
            }
        }

        /// Distinct signed coin purchases: (transactionId, JWS).
        static func purchases(_ count: Int, market: inout MarketStore, account: String) throws -> [(String, String)] {
            try (0..<count).map { _ in
                let (transaction, jws) = try market.buySigned("market.coins.100", account: account)
                return (transaction.transactionId, jws)
            }
        }

        /// Every acknowledged purchase is stored, and the balance is exactly what the stored ones credit.
        static func expectEveryAcknowledgedWriteStored(_ results: [Posted], user: String, client: APIClient,
                                                       sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let stored = Set(JSONFields.transactionIds(try await client.history(user)))
            let acknowledged = Set(results.filter { $0.status == 200 }.map(\.transactionId))
            #expect(acknowledged.isSubset(of: stored), "answered 200 but not stored: \(acknowledged.subtracting(stored).prefix(5))",
                    sourceLocation: sourceLocation)
            #expect(JSONFields.balance(try await client.customer(user)) == Decimal(100 * stored.count),
                    "a purchase credits once", sourceLocation: sourceLocation)
        }

        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func aServerSIGKILLedUnderWriteLoadLosesNoAcknowledgedWriteAndTheOtherKeepsServing() async throws {
            let cluster = try PostgresCluster.shared()
            let pair = try ServerPair(cluster: cluster)
            var market = try pair.fixture.market()
            let purchases = try Self.purchases(300, market: &market, account: "fay")
            let victim = pair.fixture.server
            let pid = victim.pid
            let results = try await Self.post(purchases, for: "fay", to: pair.clients, trigger: 60) {
                kill(pid, SIGKILL)
            }
            try victim.killNow()  // reaps it
            #expect(!victim.isRunning)
            let first = results.filter { $0.server == 0 }, second = results.filter { $0.server == 1 }
            #expect(first.contains { $0.status == nil }, "some posts met the killed server")
            #expect(second.allSatisfy { $0.status == 200 }, "the other server kept serving: \(second.filter { $0.status != 200 }.prefix(3))")
            #expect(!first.contains { $0.status.map { $0 != 200 } ?? false }, "the killed server answered only 200 before it died")
            try await Self.expectEveryAcknowledgedWriteStored(results, user: "fay", client: pair.clients[1])
        }

        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func postgresRestartedUnderLoadGivesNoFalse2xxAndTheServersRecoverByThemselves() async throws {
            let cluster = try PostgresCluster.startPrivate()
            let pair = try ServerPair(cluster: cluster)
            var market = try pair.fixture.market()
            let purchases = try Self.purchases(400, market: &market, account: "gus")
            let results = try await Self.post(purchases, for: "gus", to: pair.clients, trigger: 50) {
                try cluster.pgctl(["restart", "-m", "fast"])
            }
            let wrong = results.filter { $0.status != 200 && $0.status != 503 }
            #expect(wrong.isEmpty, "every answer is 200 (stored) or 503 (not known stored): \(wrong.prefix(3))")
            #expect(results.contains { $0.status == 503 }, "the restart met writes in flight")
            // Recovery without restarting the servers: writes and /readyz succeed again on both.
            var more = try Self.purchases(2, market: &market, account: "gus")
            for (index, client) in pair.clients.enumerated() {
                var ready = false
                for _ in 0..<100 where !ready {
                    ready = (try? await client.send("GET", "/readyz").status) == 200
                    if !ready { try await Task.sleep(for: .milliseconds(200)) }
                }
                #expect(ready, "server \(index) is ready again after PostgreSQL came back")
                let (id, jws) = more.removeFirst()
                let reply = try await client.postTransaction(jws, for: "gus")
                #expect(reply.status == 200, "server \(index) stores again: \(reply)")
                #expect(JSONFields.transactionIds(try await client.history("gus")).contains(id))
            }
            try await Self.expectEveryAcknowledgedWriteStored(results, user: "gus", client: pair.clients[0])
        }

        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func aServerStartedWhilePostgresIsDownIsNotReadyThenRecovers() async throws {
            let cluster = try PostgresCluster.startPrivate()
            let database = try cluster.createDatabase()
            try cluster.pgctl(["stop", "-m", "fast"])
            var options = ServerOptions()
            options.postgresURLEnv = ServerPair.urlVariable
            let fixture = try ServerFixture(options, environment: [ServerPair.urlVariable: database])  // it starts
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.coins.100", account: "hal")
            #expect(try await fixture.client.send("GET", "/readyz").status == 503)
            #expect(try await fixture.client.customerReply("hal").status == 503)
            #expect(try await fixture.client.postTransaction(jws, for: "hal").status == 503)
            #expect(await fixture.client.isHealthy(), "alive, only not ready")
            try cluster.pgctl(["start"])
            var ready = false
            for _ in 0..<100 where !ready {
                ready = (try? await fixture.client.send("GET", "/readyz").status) == 200
                if !ready { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(ready, "ready once PostgreSQL is back, without a restart")
            #expect(try await fixture.client.postTransaction(jws, for: "hal").status == 200)
            #expect(JSONFields.balance(try await fixture.client.customer("hal")) == 100)
            #expect(try cluster.psql("SELECT version FROM tally_schema", database: database)
                .trimmingCharacters(in: .whitespacesAndNewlines) == Self.schemaVersion, "migrated on the first call that reached it")
        }

        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func twoServersStartingTogetherMigrateOnceAndANewerSchemaIsRefused() async throws {
            let cluster = try PostgresCluster.shared()
            let database = try cluster.createDatabase()
            var options = ServerOptions()
            options.postgresURLEnv = ServerPair.urlVariable
            let fixture = try ServerFixture(options, environment: [ServerPair.urlVariable: database])
            let config = fixture.configFile, directory = fixture.directory
            // A second and third server started at the same moment on a fresh database.
            let fresh = try cluster.createDatabase()
            let started = Locked<[Result<Int, HarnessError>]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let result = Result { () throws(HarnessError) -> Int in
                    do {
                        let server = try ServerProcess(data: directory.appendingPathComponent("data-\(index + 3)"),
                                                       config: config, environment: [ServerPair.urlVariable: fresh])
                        defer { try? server.killNow() }
                        return server.port
                    } catch {
                        throw HarnessError("\(error)")
                    }
                }
                started.withLock { $0.append(result) }
            }
            #expect(started.current.allSatisfy { (try? $0.get()) != nil }, "\(started.current)")
            #expect(try cluster.psql("SELECT version FROM tally_schema", database: fresh)
                .trimmingCharacters(in: .whitespacesAndNewlines) == Self.schemaVersion)

            try fixture.server.killNow()
            try cluster.psql("UPDATE tally_schema SET version = 99", database: database)
            let refusal = #expect(throws: HarnessError.self) {
                _ = try ServerProcess(data: fixture.dataDirectory, config: config,
                                      environment: [ServerPair.urlVariable: database])
            }
            #expect(refusal.map { "\($0)".contains("schema version 99, newer than the \(Self.schemaVersion) this tally knows") } == true,
                    "\(String(describing: refusal))")
        }
    }
}
