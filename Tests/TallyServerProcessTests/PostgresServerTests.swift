import Foundation
import TallyCore
import TallySandbox
import Testing

extension ServerProcessTests {
    /// Two real `tally serve` processes on one PostgreSQL database (`store.kind: "postgres"`, the URL from
    /// `store.urlEnv`), requests spread across both: nothing overdrawn, nothing applied twice.
    @Suite struct PostgresServers {
        /// 1,000 spends of 1 coin against 500 coins, alternating between the servers, all in flight at once.
        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func aThousandSpendsAcrossTwoServersRecordExactlyFiveHundred() async throws {
            let cluster = try PostgresCluster.shared()
            let pair = try ServerPair(cluster: cluster)
            var market = try pair.fixture.market()
            for _ in 0..<5 {
                let (_, jws) = try market.buySigned("market.coins.100", account: "cal")
                #expect(try await pair.clients[1].postTransaction(jws, for: "cal").status == 200)
            }
            #expect(JSONFields.balance(try await pair.clients[0].customer("cal")) == 500,
                    "the first server sees what the second stored")
            let clients = pair.clients
            let replies = try await withThrowingTaskGroup(of: (String, HTTPReply).self) { group in
                for index in 0..<1_000 {
                    group.addTask {
                        let id = "cal-spend-\(index)"
                        return (id, try await clients[index % 2].spend(1, id: id, for: "cal"))
                    }
                }
                var all: [(String, HTTPReply)] = []
                for try await reply in group { all.append(reply) }
                return all
            }
            let recorded = replies.filter { $0.1.status == 200 }
            #expect(recorded.count == 500)
            #expect(replies.filter { $0.1.status == 409 }.count == 500)
            let other = replies.filter { $0.1.status != 200 && $0.1.status != 409 }
            #expect(other.isEmpty, "unexpected replies: \(other.prefix(3).map(\.1))")
            for (_, reply) in recorded {
                #expect(JSONFields.balance(try reply.customer()).map { $0 >= 0 } == true, "never negative: \(reply)")
            }
            for client in clients {
                let final = try await client.customer("cal")
                #expect(JSONFields.balance(final) == 0)
                #expect(JSONFields.debt(final) == 0)
            }
            let ledger = JSONFields.items(try await clients[0].history("cal"), kind: "ledger")
            let spent = Set(ledger.filter { $0["entry"] as? String == "spend" }.compactMap { $0["id"] as? String }
                .map { $0.hasPrefix("spend:") ? String($0.dropFirst(6)) : $0 })
            #expect(spent == Set(recorded.map(\.0)), "the stored spends are exactly the ones answered 200")
        }

        /// Each server keeps the state it computed in the database (cache off): after a write on the other server,
        /// the kept state is never served again, so every read shows every write before it, on either server.
        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func aStateKeptByOneServerIsNeverServedAfterAWriteOnTheOther() async throws {
            let cluster = try PostgresCluster.shared()
            let pair = try ServerPair(cluster: cluster)
            var market = try pair.fixture.market()
            let clients = pair.clients
            for round in 1...15 {
                let reader = clients[round % 2], writer = clients[(round + 1) % 2]
                let before = try await reader.customer("kay")
                #expect(JSONFields.balance(before) == Decimal(100 * (round - 1)), "round \(round), before")
                #expect(JSONFields.balance(try await reader.customer("kay")) == Decimal(100 * (round - 1)),
                        "round \(round): the kept state, read again")
                let (_, jws) = try market.buySigned("market.coins.100", account: "kay")
                #expect(try await writer.postTransaction(jws, for: "kay").status == 200)
                #expect(JSONFields.balance(try await reader.customer("kay")) == Decimal(100 * round),
                        "round \(round): the other server's write is seen at once")
            }
            _ = try await clients[0].spend(250, id: "kay-spend", for: "kay")
            #expect(JSONFields.balance(try await clients[1].customer("kay")) == 1_250)
            let kept = try cluster.psql("SELECT count(*) FROM customers WHERE state_version = version", database: pair.database)
            #expect(kept.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "the last read kept its state")
            // A state kept in the row but wrong (as a bug would leave it) is what a read serves: proof the reads above
            // went through the kept states.
            try cluster.psql("UPDATE customers SET state_body = replace(state_body, '1250', '7')", database: pair.database)
            #expect(JSONFields.balance(try await clients[0].customer("kay")) == 7)
        }

        /// The same JWS posted to both servers at the same moment, for many purchases: one `inserted` each.
        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func theSameTransactionPostedToBothAtOnceIsInsertedOnce() async throws {
            let cluster = try PostgresCluster.shared()
            let pair = try ServerPair(cluster: cluster)
            var market = try pair.fixture.market()
            let clients = pair.clients
            for round in 0..<20 {
                let (_, jws) = try market.buySigned(round == 0 ? "market.premium" : "market.coins.100", account: "dan")
                let outcomes = try await withThrowingTaskGroup(of: HTTPReply.self) { group in
                    for index in 0..<4 { group.addTask { try await clients[index % 2].postTransaction(jws, for: "dan") } }
                    var all: [HTTPReply] = []
                    for try await reply in group { all.append(reply) }
                    return all
                }
                #expect(outcomes.allSatisfy { $0.status == 200 }, "\(outcomes.filter { $0.status != 200 })")
                let names = try outcomes.map { (try $0.json()["transaction"] as? [String: Any])?["outcome"] as? String }
                #expect(names.filter { $0 == "inserted" }.count == 1, "round \(round): \(names) \(outcomes.map { String(decoding: $0.body, as: UTF8.self).prefix(300) })")
                #expect(names.filter { $0 == "unchanged" }.count == 3, "round \(round): \(names)")
            }
            let state = try await clients[1].customer("dan")
            #expect(JSONFields.balance(state) == 1_900, "19 coin purchases credit 100 each, once")
            #expect(JSONFields.features(state).contains("premium"))
            #expect(JSONFields.transactionIds(try await clients[0].history("dan")).count == 20)
        }

        /// One notification delivered to both servers at once (Apple retrying while the first is in flight).
        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func theSameNotificationDeliveredToBothIsAppliedOnce() async throws {
            let cluster = try PostgresCluster.shared()
            let pair = try ServerPair(cluster: cluster)
            var market = try pair.fixture.market(start: Date().addingTimeInterval(-40 * 86_400))
            let (first, firstJWS) = try market.buySigned("market.pro.monthly", account: "nia")
            #expect(try await pair.clients[0].postTransaction(firstJWS, for: "nia").status == 200)
            market.advance(by: SandboxDuration(40, .day))
            let chain = market.sandbox.transactions(account: "nia").filter { $0.originalTransactionId == first.originalTransactionId }
            let renewed = try #require(chain.max { $0.purchaseDate < $1.purchaseDate })
            let renewal = try #require(market.sandbox.renewalInfos(account: "nia").first)
            let notification = ServerNotification(
                notificationType: .didRenew, notificationUUID: UUID().uuidString,
                signedDate: renewed.signedDate ?? renewed.purchaseDate,
                data: NotificationData(bundleId: "com.example.market", environment: .sandbox,
                                       signedTransactionInfo: try market.signed(renewed),
                                       signedRenewalInfo: try market.sign(renewal), status: 1))
            let signedPayload = try market.sign(notification)
            let clients = pair.clients
            let replies = try await withThrowingTaskGroup(of: HTTPReply.self) { group in
                for index in 0..<6 { group.addTask { try await Notifications.post(signedPayload, to: clients[index % 2]) } }
                var all: [HTTPReply] = []
                for try await reply in group { all.append(reply) }
                return all
            }
            #expect(replies.allSatisfy { $0.status == 200 }, "\(replies.filter { $0.status != 200 })")
            let results = try replies.map { try $0.json()["result"] as? String }
            #expect(results.filter { $0 == "applied" }.count == 1, "\(results)")
            #expect(results.filter { $0 == "duplicate" }.count == 5, "\(results)")
            let items = JSONFields.items(try await clients[1].history("nia"), kind: "notification")
            #expect(items.count == 1)
            #expect(Notifications.subscription(try await clients[0].customer("nia"))["status"] as? String == "subscribed")
        }

        /// A refund on one server racing a replay of the original copy on the other: the refund wins, whichever
        /// commits first (newer facts win in the database).
        @Test(.enabled(if: PostgresCluster.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
        func aRefundRacingAReplayOfTheOriginalEndsRevoked() async throws {
            let cluster = try PostgresCluster.shared()
            let pair = try ServerPair(cluster: cluster)
            var market = try pair.fixture.market(start: Date().addingTimeInterval(-3_600))
            let clients = pair.clients
            for round in 0..<10 {
                let user = "eve-\(round)"
                let (bought, original) = try market.buySigned("market.premium", account: user)
                #expect(try await clients[round % 2].postTransaction(original, for: user).status == 200)
                market.advance(by: SandboxDuration(1, .minute))
                let refunded = try market.signed(try market.refund(bought.transactionId))
                let replies = try await withThrowingTaskGroup(of: HTTPReply.self) { group in
                    group.addTask { try await clients[round % 2].postTransaction(original, for: user) }
                    group.addTask { try await clients[(round + 1) % 2].postTransaction(refunded, for: user) }
                    group.addTask { try await clients[round % 2].postTransaction(original, for: user) }
                    var all: [HTTPReply] = []
                    for try await reply in group { all.append(reply) }
                    return all
                }
                #expect(replies.allSatisfy { $0.status == 200 }, "\(replies.filter { $0.status != 200 })")
                for client in clients {
                    let state = try await client.customer(user)
                    #expect(!JSONFields.features(state).contains("premium"), "round \(round): the refund was lost")
                }
                // A replay after the race changes nothing either.
                #expect((try await clients[round % 2].postTransaction(original, for: user).json()["transaction"]
                         as? [String: Any])?["outcome"] as? String == "unchanged")
                let stored = JSONFields.items(try await clients[0].history(user), kind: "transaction")
                #expect(stored.count == 1 && stored.allSatisfy { $0["revocationDate"] is String }, "\(stored)")
            }
        }
    }
}
