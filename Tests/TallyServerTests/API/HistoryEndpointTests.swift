import Foundation
import TallyCore
import Testing
@testable import TallyServer

@Suite("GET /v1/customers/{id}/history")
struct HistoryEndpointTests {
    @Test("pages walk the whole history newest first, without duplicates or gaps, across equal dates", arguments: StoreKind.tested)
    func pagination(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let base = ServerFixture.start.addingTimeInterval(-86_400)
        for index in 0..<9 {
            // Pairs of purchases share a date, so ties are broken by id.
            let date = base.addingTimeInterval(Double(index / 2) * 60)
            #expect(try fixture.post(Purchases.coins("40\(index)", at: date), for: "h").status == 200)
        }
        for index in 0..<3 {
            #expect(fixture.send("POST", "/v1/customers/h/currencies/coins/spend",
                                 body: #"{"amount":1,"id":"s\#(index)"}"#).status == 200)
        }
        // 9 transactions + 9 credits + 3 spends.
        var seen: [[String: Any]] = []
        var cursor: String?
        var pages = 0
        repeat {
            var query = ["limit": "4"]
            if let cursor { query["cursor"] = cursor }
            let page = fixture.send("GET", "/v1/customers/h/history", query: query)
            #expect(page.status == 200)
            let items = try #require(page.json["items"] as? [[String: Any]])
            #expect(items.count <= 4)
            seen += items
            cursor = page.json["nextCursor"] as? String
            pages += 1
        } while cursor != nil && pages < 20
        #expect(pages == 6)
        #expect(seen.count == 21)
        let keys = seen.map { "\($0["kind"] ?? "")|\($0["transactionId"] ?? "")|\($0["id"] ?? "")" }
        #expect(Set(keys).count == 21)
        let dates = seen.compactMap { $0["date"] as? String }
        #expect(dates == dates.sorted(by: >))
        let all = fixture.send("GET", "/v1/customers/h/history", query: ["limit": "500"])
        #expect((all.json["items"] as? [[String: Any]])?.count == 21)
        #expect(all.json["nextCursor"] is NSNull)
    }

    @Test("items carry the documented fields for transactions and ledger entries", arguments: StoreKind.tested)
    func itemShapes(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        _ = try fixture.post(Purchases.coins("4100", at: ServerFixture.start.addingTimeInterval(-60)), for: "shape")
        let reply = fixture.send("GET", "/v1/customers/shape/history")
        let items = try #require(reply.json["items"] as? [[String: Any]])
        let transaction = try #require(items.first { $0["kind"] as? String == "transaction" })
        #expect(transaction["transactionId"] as? String == "4100")
        #expect(transaction["type"] as? String == "Consumable")
        #expect(transaction["source"] as? String == "signedTransaction")
        #expect(transaction["revocationDate"] is NSNull)
        #expect(transaction["date"] as? String == "2026-11-30T00:52:20.000Z")
        let ledger = try #require(items.first { $0["kind"] as? String == "ledger" })
        #expect(ledger["entry"] as? String == "credit")
        #expect(ledger["currency"] as? String == "coins")
        #expect(ledger["transactionId"] as? String == "4100")
        #expect(reply.text.contains(#""amount":10"#))
        let empty = fixture.send("GET", "/v1/customers/shape/history", query: ["cursor": "", "limit": ""])
        #expect((empty.json["items"] as? [[String: Any]])?.count == 2)
    }

    @Test("a bad limit or cursor is 400 invalid_request", arguments: [
        ["limit": "0"], ["limit": "501"], ["limit": "ten"], ["limit": "-1"], ["cursor": "not-a-cursor"],
        ["cursor": "aDE6eDp5"],
    ])
    func badParameters(query: [String: String]) throws {
        let reply = try ServerFixture().send("GET", "/v1/customers/h/history", query: query)
        #expect(reply.status == 400)
        #expect(reply.errorCode == "invalid_request")
    }
}
