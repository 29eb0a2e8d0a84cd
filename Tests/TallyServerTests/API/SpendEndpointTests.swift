import Foundation
import TallyCore
import Testing
@testable import TallyServer

@Suite("POST /v1/customers/{id}/currencies/{currency}/spend")
struct SpendEndpointTests {
    func spendPath(_ user: String = "buyer", currency: String = "coins") -> String {
        "/v1/customers/\(user)/currencies/\(currency)/spend"
    }

    /// A fixture whose `buyer` bought 10 coins a minute ago.
    func fundedFixture() throws -> ServerFixture {
        let fixture = try ServerFixture()
        let bought = try fixture.post(Purchases.coins("3001", at: ServerFixture.start.addingTimeInterval(-60)),
                                      for: "buyer")
        #expect(bought.balance("coins") == "10")
        return fixture
    }

    @Test("a spend is recorded once: recorded, then duplicate; the balance drops once")
    func recordThenDuplicate() throws {
        let fixture = try fundedFixture()
        let first = fixture.send("POST", spendPath(), body: #"{"amount":4,"id":"order-1"}"#)
        #expect(first.status == 200)
        let spend = try #require(first.json["spend"] as? [String: Any])
        #expect(spend["outcome"] as? String == "recorded")
        #expect(spend["id"] as? String == "order-1")
        #expect(spend["currency"] as? String == "coins")
        #expect(first.balance("coins") == "6")
        let again = fixture.send("POST", spendPath(), body: #"{"amount":4,"id":"order-1"}"#)
        #expect((again.json["spend"] as? [String: Any])?["outcome"] as? String == "duplicate")
        #expect(again.balance("coins") == "6")
    }

    @Test("amounts are exact decimals: three spends of 0.1 leave exactly 9.7")
    func exactDecimals() throws {
        let fixture = try fundedFixture()
        for index in 0..<3 {
            #expect(fixture.send("POST", spendPath(), body: #"{"amount":0.1,"id":"tenth-\#(index)"}"#).status == 200)
        }
        let read = fixture.send("GET", "/v1/customers/buyer")
        #expect(read.text.contains(#""balances":{"coins":9.7}"#))
    }

    @Test("a spend above the balance is 409 insufficient_balance with the balance")
    func insufficient() throws {
        let fixture = try fundedFixture()
        let reply = fixture.send("POST", spendPath(), body: #"{"amount":10.5,"id":"big"}"#)
        #expect(reply.status == 409)
        #expect(reply.errorCode == "insufficient_balance")
        #expect(reply.text.contains(#""balance":10"#))
        #expect(try fixture.store.customer("buyer").spends.isEmpty)
    }

    @Test("an id reused for another amount is 409 conflicting_id")
    func conflictingId() throws {
        let fixture = try fundedFixture()
        _ = fixture.send("POST", spendPath(), body: #"{"amount":1,"id":"same"}"#)
        let reply = fixture.send("POST", spendPath(), body: #"{"amount":2,"id":"same"}"#)
        #expect(reply.status == 409)
        #expect(reply.errorCode == "conflicting_id")
    }

    @Test("a currency tally.json does not define is 404 unknown_currency")
    func unknownCurrency() throws {
        let fixture = try fundedFixture()
        let reply = fixture.send("POST", spendPath(currency: "gems"), body: #"{"amount":1,"id":"g"}"#)
        #expect(reply.status == 404)
        #expect(reply.errorCode == "unknown_currency")
    }

    @Test("amounts that are not numbers above zero are 400 invalid_amount",
          arguments: ["0", "-1", "0.0", #""5""#, "true", "null", "[1]", "1e-200", "0.123456789012345678901234567890123456789",
                      // Exact as a Decimal, but 10 - amount would round back to 10: a free spend.
                      "1e-38", "0.000000001", "1e15", "1000000000000000.5"])
    func invalidAmount(amount: String) throws {
        let fixture = try ServerFixture()
        let reply = fixture.send("POST", spendPath(), body: #"{"amount":\#(amount),"id":"x"}"#)
        #expect(reply.status == 400)
        #expect(reply.errorCode == "invalid_amount")
    }

    @Test("a missing or empty id, or a missing amount, is 400 invalid_request", arguments: StoreKind.tested)
    func invalidRequest(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        for body in [#"{"amount":1}"#, #"{"amount":1,"id":""}"#, #"{"amount":1,"id":7}"#, #"{"id":"x"}"#] {
            #expect(fixture.send("POST", spendPath(), body: body).errorCode == "invalid_request", "\(body)")
        }
    }

    @Test("concurrent spends never overdraw: exactly as many succeed as the balance covers")
    func concurrentSpends() async throws {
        let fixture = try fundedFixture()
        let statuses = await withTaskGroup(of: Int.self) { group in
            for index in 0..<12 {
                group.addTask {
                    fixture.send("POST", spendPath(), body: #"{"amount":1,"id":"c-\#(index)"}"#).status
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count == 10)
        #expect(statuses.filter { $0 == 409 }.count == 2)
        #expect(fixture.send("GET", "/v1/customers/buyer").balance("coins") == "0")
    }
}
