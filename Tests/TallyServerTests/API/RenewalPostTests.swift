import Foundation
import TallyCore
import TallyHTTP
import Testing
@testable import TallyServer

/// Posts that change a subscriber's facts (renewals, a refund of one, a crossgrade) read only the periods still in
/// play (TallyCore's `PeriodSupersession`), yet every answer, and every read after, is the state of the whole
/// stored history.
@Suite("Renewal posts answer the state of the whole history")
struct RenewalPostTests {
    private static let start = ServerFixture.start
    private static let month: TimeInterval = 30 * 86_400

    /// The `customer` object computed from everything stored for `user` (no period left out) at the clock's time.
    private func wholeState(_ fixture: ServerFixture, _ user: String) throws -> [String: Any] {
        let record = try fixture.store.base.customer(user)
        let body = EntitlementAPI.encodeCustomer(record, rules: fixture.api.offerings.current().rules, now: fixture.clock.now).body
        let json = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        return json ?? [:]
    }

    private func expectWhole(_ answer: Reply, _ fixture: ServerFixture, _ user: String, _ name: String) throws {
        #expect(answer.status == 200, "\(name): \(answer.text)")
        #expect(NSDictionary(dictionary: answer.customer).isEqual(to: try wholeState(fixture, user)), "\(name): \(answer.text)")
    }

    @Test(arguments: StoreKind.tested) func everyAnswerIsTheWholeHistorysState(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let user = "renewing"
        // Twelve months of renewals, each posted as it happens: the clock is moved to an hour after each one.
        let first = Self.start
        func period(_ index: Int, product: String = "market.pro.monthly", revoked: Date? = nil) -> StoreTransaction {
            let from = first.addingTimeInterval(Double(index) * Self.month)
            return Purchases.make(index == 0 ? "r0" : "r\(index)", product: product, type: .autoRenewable, at: from,
                                  original: "r0", expires: from.addingTimeInterval(Self.month), group: "6E1A1000",
                                  revoked: revoked)
        }
        for index in 0..<12 {
            fixture.clock.set(first.addingTimeInterval(Double(index) * Self.month + 3_600))
            try expectWhole(try fixture.post(period(index), for: user), fixture, user, "renewal \(index)")
        }
        // A refund of the latest period: the one before is read again, and the answer says revoked.
        fixture.clock.advance(by: 86_400)
        let refund = try fixture.post(period(11, revoked: fixture.clock.now), for: user)
        try expectWhole(refund, fixture, user, "the refund")
        #expect(!refund.features.contains("pro"), "\(refund.text)")
        // The next renewal, then the GET a day later (the cache's entry, then a server with the cache off).
        fixture.clock.set(first.addingTimeInterval(12 * Self.month + 3_600))
        try expectWhole(try fixture.post(period(12), for: user), fixture, user, "renewal 12")
        fixture.clock.advance(by: 86_400)
        try expectWhole(fixture.send("GET", "/v1/customers/\(user)"), fixture, user, "GET")
        var configuration = fixture.api.configuration
        configuration.store.cacheSeconds = 0
        let uncached = try EntitlementAPI(configuration: configuration, store: fixture.store.base, clock: fixture.clock.serverClock)
        let read = Reply(uncached.handle(HTTPRequest(method: "GET", path: "/v1/customers/\(user)",
                                                     headers: ["authorization": "Bearer \(ServerFixture.secretKey)"])))
        try expectWhole(read, fixture, user, "GET, cache off")
        // The stored state read for now holds the period in force only; with no date, all thirteen.
        #expect(try fixture.store.base.customerState(user, at: fixture.clock.now).transactions.count == 1)
        #expect(try fixture.store.base.customerState(user).transactions.count == 13)
    }
}
