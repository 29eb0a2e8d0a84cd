import Foundation
import TallyCore
import Testing

extension ServerProcessTests {
    /// Two real `tally serve` on one PostgreSQL primary and its streaming replica (`pg_basebackup -R`,
    /// `store.replicas`): reads go to the replica, a read after a write (`Tally-Read-After`) never sees less than the
    /// write, and a replica paused or stopped only sends reads to the primary.
    @Suite struct Replicas {

        /// The shared cluster when `make test` started it with a replica, else one of this test's own.
        static func clusterWithReplica(private: Bool = false) throws -> PostgresCluster {
            let shared = try PostgresCluster.shared()
            if !`private`, shared.replicaURL != nil { return shared }
            return try PostgresCluster.startPrivate(replica: true)
        }

        /// Two servers on a fresh database of `cluster`, reading from its replica, with `maxReplicaLagSeconds`.
        static func pair(_ cluster: PostgresCluster, maxLag: Double = 5) throws -> ServerPair {
            var options = ServerOptions()
            options.maxReplicaLagSeconds = maxLag
            return try ServerPair(cluster: cluster, options: options, replica: true)
        }

        /// The `Tally-Read-After` of a write's answer: 16 uppercase hexadecimal digits.
        static func token(_ reply: HTTPReply, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
            let token = reply.header(ReadAfter.headerName)
            #expect(token.flatMap { ReadAfter(token: $0) } != nil, "a write's answer carries a token: \(reply)",
                    sourceLocation: sourceLocation)
            return token
        }

        /// The customer's coin balance read with `token` (none: no header).
        static func balance(_ client: APIClient, _ appUserId: String, after token: String?) async throws -> Decimal? {
            let reply = try await client.send("GET", APIClient.customerPath(appUserId), key: client.keys.publicKey,
                                              headers: token.map { [ReadAfter.headerName: $0] } ?? [:])
            guard reply.status == 200 else { throw HarnessError("GET customer: \(reply)") }
            return JSONFields.balance(try reply.customer())
        }

        /// A counter or gauge of `/metrics`, by its whole name with labels; nil when absent.
        static func metric(_ client: APIClient, _ line: String) async throws -> Double? {
            let text = String(decoding: try await client.send("GET", "/metrics", key: client.keys.secretKey).body,
                              as: UTF8.self)
            for row in text.split(separator: "\n") where row.hasPrefix(line + " ") {
                return Double(row.dropFirst(line.count + 1))
            }
            return nil
        }

        /// The replica's status in `/readyz` (which answers 200 whatever the replica does).
        static func replicaStatus(_ client: APIClient) async throws -> String? {
            let reply = try await client.send("GET", "/readyz")
            #expect(reply.status == 200, "a replica never makes the server not ready: \(reply)")
            let replicas = try reply.json()["replicas"] as? [[String: Any]]
            return replicas?.first?["status"] as? String
        }

        /// Polls `/readyz` (every 50 ms, at most 15 s) until the replica shows `status`.
        static func waitForStatus(_ status: String, _ client: APIClient) async throws -> Bool {
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline {
                if try await replicaStatus(client) == status { return true }
                try await Task.sleep(for: .milliseconds(50))
            }
            return false
        }

        /// Polls the replica (every 20 ms, at most 15 s) until it has replayed the primary position `token` names.
        static func waitForReplay(_ cluster: PostgresCluster, _ token: String) async throws -> Bool {
            guard let position = ReadAfter(token: token)?.position else { return false }
            let lsn = String(position >> 32, radix: 16, uppercase: true) + "/"
                + String(position & 0xFFFF_FFFF, radix: 16, uppercase: true)
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline {
                let done = try cluster.psqlOnReplica("SELECT pg_last_wal_replay_lsn() >= '\(lsn)'::pg_lsn")
                if done.trimmingCharacters(in: .whitespacesAndNewlines) == "t" { return true }
                try await Task.sleep(for: .milliseconds(20))
            }
            return false
        }

        /// Purchases posted to one server are read at once on the other with the answer's token, forty times; once
        /// the replica has replayed a write, the replica serves the read with its token (the counters show it).
        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func aPurchaseOnOneServerIsReadAtOnceOnTheOtherWithItsToken() async throws {
            let cluster = try Self.clusterWithReplica()
            let pair = try Self.pair(cluster)
            var market = try pair.fixture.market()
            let clients = pair.clients
            #expect(try await Self.waitForStatus("up", clients[1]), "the replica is found up")
            var token: String?
            for round in 1...40 {
                let (_, jws) = try market.buySigned("market.coins.100", account: "rio")
                let posted = try await clients[round % 2].postTransaction(jws, for: "rio")
                #expect(posted.status == 200, "\(posted)")
                token = Self.token(posted)
                #expect(try await Self.balance(clients[(round + 1) % 2], "rio", after: token) == Decimal(100 * round),
                        "round \(round): the other server's read after the write sees it")
            }
            let before = try await Self.metric(clients[0], #"tally_store_reads_total{node="replica0"}"#) ?? 0
            let last = try #require(token)
            #expect(try await Self.waitForReplay(cluster, last), "the replica replays the last write")
            #expect(try await Self.balance(clients[0], "rio", after: last) == 4_000)
            let after = try await Self.metric(clients[0], #"tally_store_reads_total{node="replica0"}"#) ?? 0
            #expect(after > before, "a read whose token the replica has replayed is the replica's (\(before) → \(after))")
            let history = JSONFields.items(try await clients[1].history("rio"), kind: "transaction")
            #expect(history.count == 40, "the history, read from the replica, has every purchase")
            // The dashboard's snapshot reads (one REPEATABLE READ READ ONLY transaction each) run on the standby too.
            let beforeDashboard = try await Self.metric(clients[1], #"tally_store_reads_total{node="replica0"}"#) ?? 0
            for path in ["/v1/dashboard/overview", "/v1/dashboard/customers?q=rio", "/v1/dashboard/transactions"] {
                let reply = try await clients[1].send("GET", path, key: clients[1].keys.secretKey)
                #expect(reply.status == 200, "\(path): \(reply)")
            }
            let afterDashboard = try await Self.metric(clients[1], #"tally_store_reads_total{node="replica0"}"#) ?? 0
            #expect(afterDashboard >= beforeDashboard + 3, "the dashboard's reads are the replica's")
        }

        /// A replica that applies commits 3 s late (`recovery_min_apply_delay`) but within the 30 s bound stays up and
        /// serves reads: one without a token may show the state before a write (the bound's promise), one with the
        /// write's token never does, on either server.
        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func aLaggingReplicaServesOnlyReadsItHasReplayed() async throws {
            let cluster = try Self.clusterWithReplica(private: true)
            try cluster.psqlOnReplica("ALTER SYSTEM SET recovery_min_apply_delay = '3s'")
            try cluster.psqlOnReplica("SELECT pg_reload_conf()")
            let pair = try Self.pair(cluster, maxLag: 30)
            var market = try pair.fixture.market()
            let clients = pair.clients
            let (_, first) = try market.buySigned("market.coins.100", account: "lea")
            let firstToken = Self.token(try await clients[0].postTransaction(first, for: "lea"))
            #expect(try await Self.waitForReplay(cluster, try #require(firstToken)))
            #expect(try await Self.waitForStatus("up", clients[1]))
            let (_, second) = try market.buySigned("market.coins.100", account: "lea")
            let posted = try await clients[0].postTransaction(second, for: "lea")
            let token = Self.token(posted)
            #expect(try await Self.balance(clients[1], "lea", after: token) == 200, "the read after the write sees it")
            #expect(try await Self.balance(clients[0], "lea", after: token) == 200)
            #expect(try await Self.balance(clients[1], "lea", after: firstToken) == 100,
                    "a read after only the first write is the delayed replica's, which has not applied the second")
            #expect(try await Self.replicaStatus(clients[1]) == "up", "3 s behind is within the 30 s bound")
            #expect(try await Self.waitForReplay(cluster, try #require(token)))
            #expect(try await Self.balance(clients[1], "lea", after: firstToken) == 200, "applied, the replica has it")
        }

        /// A replica applying commits 4 s late under a 1 s bound: after a write it is `lagging` and skipped, so even a
        /// read without a token is the primary's; once it has applied the write it is `up` again.
        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func aReplicaPastTheLagBoundIsSkippedUntilItCatchesUp() async throws {
            let cluster = try Self.clusterWithReplica(private: true)
            let pair = try Self.pair(cluster, maxLag: 1)
            var market = try pair.fixture.market()
            let client = pair.clients[0]
            #expect(try await Self.waitForStatus("up", client))
            try cluster.psqlOnReplica("ALTER SYSTEM SET recovery_min_apply_delay = '4s'")
            try cluster.psqlOnReplica("SELECT pg_reload_conf()")
            let (_, jws) = try market.buySigned("market.coins.100", account: "max")
            let token = Self.token(try await client.postTransaction(jws, for: "max"))
            #expect(try await Self.waitForStatus("lagging", client), "more than 1 s behind the write: lagging")
            let fallbacks = try await Self.metric(client, "tally_store_replica_fallbacks_total") ?? 0
            #expect(try await Self.balance(client, "max", after: nil) == 100, "a lagging replica is skipped")
            #expect(try await Self.metric(client, "tally_store_replica_fallbacks_total") == fallbacks + 1)
            #expect(try await Self.waitForReplay(cluster, try #require(token)))
            #expect(try await Self.waitForStatus("up", client), "caught up, it serves again")
        }

        /// Replay paused: reads that carry a later token go to the primary at once, and once the pause is seen
        /// (`/readyz` shows `paused`), every read does; nothing read after a write misses it. Resumed: the
        /// replica serves again.
        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func aPausedReplicaSendsReadsToThePrimaryAndNothingStaleIsServed() async throws {
            let cluster = try Self.clusterWithReplica(private: true)
            let pair = try Self.pair(cluster, maxLag: 2)
            var market = try pair.fixture.market()
            let clients = pair.clients
            #expect(try await Self.waitForStatus("up", clients[1]))
            let (_, first) = try market.buySigned("market.coins.100", account: "pia")
            #expect(try await clients[0].postTransaction(first, for: "pia").status == 200)
            try cluster.psqlOnReplica("SELECT pg_wal_replay_pause()")
            for round in 2...11 {
                let (_, jws) = try market.buySigned("market.coins.100", account: "pia")
                let posted = try await clients[0].postTransaction(jws, for: "pia")
                #expect(posted.status == 200, "\(posted)")
                #expect(try await Self.balance(clients[1], "pia", after: Self.token(posted)) == Decimal(100 * round),
                        "round \(round): with replay paused, the read after the write is the primary's")
            }
            #expect(try await Self.waitForStatus("paused", clients[1]), "/readyz shows the replica paused")
            #expect(try await Self.balance(clients[1], "pia", after: nil) == 1_100,
                    "a paused replica is skipped even for a read without a token")
            #expect(try await Self.metric(clients[1], #"tally_store_replica_up{replica="0",status="paused"}"#) == 0)
            #expect((try await Self.metric(clients[1], "tally_store_replica_fallbacks_total") ?? 0) >= 10)
            #expect(try cluster.psqlOnReplica("SELECT count(*) FROM transactions", database: pair.database)
                .trimmingCharacters(in: .whitespacesAndNewlines) == "1", "the paused replica has only the first purchase")

            try cluster.psqlOnReplica("SELECT pg_wal_replay_resume()")
            #expect(try await Self.waitForStatus("up", clients[1]), "resumed, the replica is up again")
            let before = try await Self.metric(clients[1], #"tally_store_reads_total{node="replica0"}"#) ?? 0
            #expect(try await Self.balance(clients[1], "pia", after: nil) == 1_100)
            let after = try await Self.metric(clients[1], #"tally_store_reads_total{node="replica0"}"#) ?? 0
            #expect(after == before + 1, "the replica serves reads again")
        }

        /// The replica stopped: every read keeps working (from the primary) with and without a token, `/readyz`
        /// stays 200 and shows it `down`; started again, it is found and serves reads without a server restart.
        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func aStoppedReplicaLeavesReadsWorkingAndIsFoundAgain() async throws {
            let cluster = try Self.clusterWithReplica(private: true)
            let pair = try Self.pair(cluster)
            var market = try pair.fixture.market()
            let clients = pair.clients
            #expect(try await Self.waitForStatus("up", clients[0]))
            let (_, first) = try market.buySigned("market.coins.100", account: "sol")
            #expect(try await clients[0].postTransaction(first, for: "sol").status == 200)
            #expect(try await Self.balance(clients[0], "sol", after: nil) != nil, "a pooled replica connection exists")
            try cluster.replicaCtl(["stop", "-m", "immediate"])
            for round in 2...6 {
                let (_, jws) = try market.buySigned("market.coins.100", account: "sol")
                let posted = try await clients[1].postTransaction(jws, for: "sol")
                #expect(posted.status == 200, "\(posted)")
                #expect(try await Self.balance(clients[0], "sol", after: Self.token(posted)) == Decimal(100 * round))
                #expect(try await Self.balance(clients[0], "sol", after: nil) == Decimal(100 * round),
                        "round \(round): a read without a token, the replica down")
                #expect(try await clients[0].historyPage("sol").status == 200)
            }
            #expect(try await Self.waitForStatus("down", clients[0]), "/readyz shows the replica down")
            #expect(try await Self.metric(clients[0], #"tally_store_replica_up{replica="0",status="down"}"#) == 0)

            try cluster.replicaCtl(["start"])
            #expect(try await Self.waitForStatus("up", clients[0]), "started again, the replica is found")
            let before = try await Self.metric(clients[0], #"tally_store_reads_total{node="replica0"}"#) ?? 0
            #expect(try await Self.balance(clients[0], "sol", after: nil) == 600)
            let after = try await Self.metric(clients[0], #"tally_store_reads_total{node="replica0"}"#) ?? 0
            #expect(after == before + 1, "the replica serves reads again, reconnected")
        }

        /// A `Tally-Read-After` that is not a token a write gave is refused (400 `invalid_request`) on every route;
        /// a well-formed one far past the primary only sends that read to the primary, which answers it rightly.
        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func aForgedReadAfterIsRefusedOrOnlySendsTheReadToThePrimary() async throws {
            let cluster = try Self.clusterWithReplica()
            let pair = try Self.pair(cluster)
            var market = try pair.fixture.market()
            let client = pair.clients[0]
            let (_, jws) = try market.buySigned("market.coins.100", account: "ivy")
            #expect(try await client.postTransaction(jws, for: "ivy").status == 200)
            #expect(try await Self.waitForStatus("up", client))
            for garbage in ["", "0/16B374D8", "00000000016b374d", "0000000016B374D8F", "000000016B374D8 ", "GGGGGGGGGGGGGGGG",
                            "-000000016B374D8", "00000000\u{00e9}6B374D"] {
                let reply = try await client.send("GET", APIClient.customerPath("ivy"), key: client.keys.publicKey,
                                                  headers: [ReadAfter.headerName: garbage])
                #expect(reply.status == 400, "'\(garbage)': \(reply)")
                #expect((try? reply.error()["code"] as? String) == "invalid_request")
                let post = try await client.send("POST", APIClient.customerPath("ivy") + "/transactions",
                                                 key: client.keys.publicKey,
                                                 body: try APIClient.json(["signedTransaction": jws]),
                                                 headers: [ReadAfter.headerName: garbage])
                #expect(post.status == 400, "a write with '\(garbage)' is refused too: \(post)")
            }
            let fallbacks = try await Self.metric(client, "tally_store_replica_fallbacks_total") ?? 0
            #expect(try await Self.balance(client, "ivy", after: "FFFFFFFFFFFFFFFF") == 100,
                    "a position no replica reached: the primary answers")
            #expect(try await Self.metric(client, "tally_store_replica_fallbacks_total") == fallbacks + 1)
            #expect(try await client.send("GET", "/healthz").status == 200)
        }
    }
}
