import Foundation
import Testing
import TallyCore
import TallySandbox

extension ServerProcessTests {
    /// A subscriber's renewals posted to a real `tally serve`: the stored file marks the superseded periods, and
    /// every answer — before and after a restart, and after a refund of the latest period — is the state TallyCore
    /// computes from the whole history.
    @Suite struct Renewals {
        private static let renewals = 12

        /// Compares what the server says with TallyCore's state of every transaction the sandbox made.
        private func expectWholeHistory(_ customer: [String: Any], _ market: MarketStore, account: String,
                                        _ name: String) {
            let all = market.sandbox.transactions(account: account)
            let state = CustomerState(catalog: market.sandbox.catalog, configuration: market.sandbox.configuration,
                                      history: PurchaseHistory(transactions: all), at: Date())
            #expect(JSONFields.features(customer) == Set(state.entitlements.map(\.feature)), "\(name): \(customer)")
            let subscription = (customer["subscriptions"] as? [[String: Any]])?.first
            let expected = state.subscriptions.first
            #expect(subscription?["status"] as? String == expected.map { "\($0.status)" }, "\(name): \(customer)")
            #expect(subscription?["productId"] as? String == expected?.productId, "\(name)")
            let expires = (subscription?["expiresDate"] as? String).flatMap { try? Date($0, strategy: .iso8601) }
            #expect(expires.map { Int(($0.timeIntervalSince1970).rounded()) }
                        == expected?.expiresDate.map { Int(($0.timeIntervalSince1970).rounded()) }, "\(name)")
        }

        /// `superseded_from_ms` of every transaction in the server's SQLite file, read by another process.
        private func marks(_ fixture: ServerFixture) throws -> [String: Int64] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", """
                import sqlite3, sys
                c = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)
                for row in c.execute('SELECT transaction_id, superseded_from_ms FROM transactions'): print(row[0], row[1])
                """, fixture.dataDirectory.appendingPathComponent("tally.sqlite").path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            var marks: [String: Int64] = [:]
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.count == 2, let value = Int64(fields[1]) { marks[String(fields[0])] = value }
            }
            return marks
        }

        /// The sandbox's periods of `first`'s chain, oldest first.
        private func chain(_ market: MarketStore, _ first: StoreTransaction) -> [StoreTransaction] {
            market.sandbox.transactions(account: "rae").filter { $0.originalTransactionId == first.originalTransactionId }
                .sorted { $0.purchaseDate < $1.purchaseDate }
        }

        @Test func aSubscriberWithManyRenewalsIsServedTheWholeHistorysState() async throws {
            let fixture = try ServerFixture()
            // Long enough ago that twelve renewals (whatever the sandbox's time rate) are in the server's past.
            var market = try fixture.market(start: Date().addingTimeInterval(-400 * 86_400))
            let account = "rae"
            let first = try market.buy("market.pro.monthly", account: account)
            #expect(try await fixture.client.postTransaction(market.signed(first), for: account).status == 200)
            for index in 0..<Self.renewals {
                let current = try #require(chain(market, first).last?.expiresDate)
                market.advance(by: SandboxDuration(Int(current.timeIntervalSince(market.sandbox.now).rounded(.up)) + 1, .second))
                let latest = try #require(chain(market, first).last)
                #expect(latest.expiresDate ?? .distantPast > current, "renewal \(index) happened")
                let posted = try await fixture.client.postTransaction(market.signed(latest), for: account)
                #expect(posted.status == 200, "renewal \(index): \(posted)")
                expectWholeHistory(try posted.customer(), market, account: account, "renewal \(index)")
            }
            let stored = try marks(fixture)
            let periods = market.sandbox.transactions(account: account)
            #expect(periods.count == Self.renewals + 1)
            let superseded = stored.values.filter { $0 < Int64.max }.count
            // Every period but the latest is superseded (an introductory period excepted).
            let introductory = periods.filter { $0.offerType == .introductory }.count
            #expect(superseded == Self.renewals - introductory, "\(stored)")
            expectWholeHistory(try await fixture.client.customer(account), market, account: account, "GET")
            #expect(try fixture.server.terminate() == 0)
            try fixture.restart()
            expectWholeHistory(try await fixture.client.customer(account), market, account: account, "GET after a restart")

            // A refund of the latest period: the one before is read again; the answer is the whole history's.
            let latest = try #require(periods.max { $0.purchaseDate < $1.purchaseDate })
            let refunded = try market.refund(latest.transactionId)
            let answer = try await fixture.client.postTransaction(market.signed(refunded), for: account)
            #expect(answer.status == 200, "\(answer)")
            expectWholeHistory(try answer.customer(), market, account: account, "the refund")
            #expect(!JSONFields.features(try answer.customer()).contains("pro"))
            #expect(try marks(fixture).values.filter { $0 < Int64.max }.count == superseded - 1,
                    "the period the refunded one superseded is read again")
        }
    }
}
