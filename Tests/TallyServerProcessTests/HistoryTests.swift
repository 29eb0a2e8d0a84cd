import Foundation
import Testing

extension ServerProcessTests {
    /// History pages: newest first, every item once across pages, bad parameters refused.
    @Suite struct History {
        @Test func smallPagesTogetherAreTheWholeHistory() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            for _ in 0..<4 {
                let (_, jws) = try market.buySigned("market.coins.10", account: "hal")
                #expect(try await client.postTransaction(jws, for: "hal").status == 200)
            }
            for index in 0..<3 {
                #expect(try await client.spend(2, id: "hal-\(index)", for: "hal").status == 200)
            }
            let whole = try await client.history("hal")
            #expect(JSONFields.items(whole, kind: "transaction").count == 4)
            #expect(JSONFields.items(whole, kind: "ledger").count == 7, "4 credits and 3 spends")
            let dates = whole.compactMap { $0["date"] as? String }
            #expect(dates.count == whole.count)
            #expect(dates == dates.sorted(by: >), "history is newest first")

            var paged: [[String: Any]] = []
            var cursor: String?
            var pages = 0
            repeat {
                let reply = try await client.historyPage("hal", cursor: cursor, limit: 2)
                #expect(reply.status == 200, "\(reply)")
                let body = try reply.json()
                let items = body["items"] as? [[String: Any]] ?? []
                #expect(items.count <= 2)
                paged += items
                cursor = body["nextCursor"] as? String
                pages += 1
            } while cursor != nil && pages < 50
            #expect(pages == (whole.count + 1) / 2 || pages == (whole.count + 1) / 2 + 1)
            #expect(JSONFields.equal(paged, whole), "pages of 2 differ from one page of 500")
        }

        @Test func badLimitsAndCursorsAre400() async throws {
            let fixture = try ServerFixture()
            let path = APIClient.customerPath("hal") + "/history"
            for query in ["?limit=0", "?limit=501", "?limit=abc", "?limit=-1", "?cursor=not-a-cursor"] {
                let reply = try await fixture.client.send("GET", path + query, key: fixture.keys.secretKey)
                #expect(reply.status == 400, "\(query): \(reply)")
                #expect(reply.errorCode == "invalid_request", "\(query): \(reply)")
                await expectHealthy(fixture.client, after: "history\(query)")
            }
            let negative = try await fixture.client.spend(-1, id: "hal-neg", for: "hal")
            #expect(negative.status == 400)
            #expect(negative.errorCode == "invalid_amount", "\(negative)")
        }
    }
}
