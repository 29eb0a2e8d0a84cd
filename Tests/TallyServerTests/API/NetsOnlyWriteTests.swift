import Foundation
import TallyCore
import TallyHTTP
import Testing
@testable import TallyServer

/// A write that moves only the nets (a coin purchase, a coin refund, a spend) answers with the state the server
/// already holds, restated with the new nets: nothing read or computed grows with the customer's history. The
/// answer must always be the state computed afresh, and anything else (another write in between, a purchase that
/// is not a consumable) must read the whole record.
@Suite("Writes that move only the nets")
struct NetsOnlyWriteTests {
    private static let start = ServerFixture.start

    /// A second server on the fixture's store with the cache off: every read computes the state from the store.
    private func freshServer(_ fixture: ServerFixture) throws -> EntitlementAPI {
        var configuration = fixture.api.configuration
        configuration.store.cacheSeconds = 0
        return try EntitlementAPI(configuration: configuration, store: fixture.store.base, clock: fixture.clock.serverClock)
    }

    private func freshState(_ server: EntitlementAPI, _ user: String) -> [String: Any] {
        let request = HTTPRequest(method: "GET", path: "/v1/customers/\(user)",
                                  headers: ["authorization": "Bearer \(ServerFixture.secretKey)"])
        return Reply(server.handle(request)).customer
    }

    private func same(_ answer: Reply, _ fresh: [String: Any]) -> Bool {
        NSDictionary(dictionary: answer.customer).isEqual(to: fresh)
    }

    @Test(arguments: StoreKind.tested) func coinPurchasesRestateTheHeldStateAndEqualTheStateComputedAfresh(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let fresh = try freshServer(fixture)
        let user = "subscriber"
        // A history that is not only coins: a subscription of ten renewals and a non-consumable.
        for month in 0..<10 {
            let from = Self.start.addingTimeInterval(Double(month - 9) * 30 * 86_400 - 3_600)
            #expect(try fixture.post(Purchases.monthly("r\(month)", original: "r0", at: from,
                                                       expires: from.addingTimeInterval(30 * 86_400)), for: user).status == 200)
        }
        #expect(try fixture.post(Purchases.premium("n1", at: Self.start.addingTimeInterval(-60)), for: user).status == 200)
        let whole = fixture.store.wholeStatesReadByWrites

        let bought = Self.start.addingTimeInterval(-30)
        let writes: [(String, () throws -> Reply)] = [
            ("a coin purchase", { try fixture.post(Purchases.coins("c1", at: bought), for: user) }),
            ("another, of 3", { try fixture.post(Purchases.coins("c2", at: bought, quantity: 3), for: user) }),
            ("the same again", { try fixture.post(Purchases.coins("c2", at: bought, quantity: 3), for: user) }),
            ("a coin refund", { try fixture.post(Purchases.make("c1", product: "market.coins.10", type: .consumable,
                                                                 at: bought, revoked: Self.start), for: user) }),
            ("a spend", { fixture.send("POST", "/v1/customers/\(user)/currencies/coins/spend", body: #"{"amount":4,"id":"s1"}"#) }),
            ("a coin purchase after the spend", { try fixture.post(Purchases.coins("c3", at: bought), for: user) }),
        ]
        for (name, write) in writes {
            let answer = try write()
            #expect(answer.status == 200, "\(name): \(answer.text)")
            #expect(same(answer, freshState(fresh, user)), "\(name): \(answer.text)")
        }
        #expect(fixture.store.wholeStatesReadByWrites == whole, "no write read the transactions back")
        #expect(fixture.send("GET", "/v1/customers/\(user)").balance("coins") == "36")

        // A purchase that is not a consumable changes the facts: the whole record.
        let refund = try fixture.post(Purchases.premium("n1", at: Self.start.addingTimeInterval(-60), revoked: Self.start), for: user)
        #expect(same(refund, freshState(fresh, user)) && !refund.features.contains("premium"), "\(refund.text)")
        #expect(fixture.store.wholeStatesReadByWrites == whole + 1)
    }

    @Test(arguments: StoreKind.tested) func aWriteElsewhereSinceTheHeldStateReadsTheWholeRecord(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let other = try freshServer(fixture)
        let user = "two-servers"
        let bought = Self.start.addingTimeInterval(-30)
        #expect(try fixture.post(Purchases.premium("n1", at: bought), for: user).status == 200)
        // The other server stores a subscription for the customer: this server's held state is one version behind.
        let jws = try fixture.signer.signTransaction(Purchases.monthly("m1", original: "m1", at: bought,
                                                                       expires: Self.start.addingTimeInterval(86_400)))
        let posted = Reply(other.handle(HTTPRequest(method: "POST", path: "/v1/customers/\(user)/transactions",
                                                    headers: ["authorization": "Bearer \(ServerFixture.publicKey)"],
                                                    body: Array(#"{"signedTransaction":"\#(jws)"}"#.utf8))))
        #expect(posted.status == 200, "\(posted.text)")
        let whole = fixture.store.wholeStatesReadByWrites
        let answer = try fixture.post(Purchases.coins("c1", at: bought), for: user)
        #expect(answer.features.contains("pro"), "the other server's write is in the answer: \(answer.text)")
        #expect(same(answer, freshState(other, user)))
        #expect(fixture.store.wholeStatesReadByWrites == whole + 1, "computed from the whole record")
    }
}
