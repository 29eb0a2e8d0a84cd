import Foundation
import Testing

extension ServerProcessTests {
    /// Spends from many connections at once never overdraw.
    @Suite struct Spends {
        @Test func aThousandConcurrentSpendsOfFiveHundredCoinsRecordExactlyFiveHundred() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let client = fixture.client
            for _ in 0..<5 {
                let (_, jws) = try market.buySigned("market.coins.100", account: "cal")
                let reply = try await client.postTransaction(jws, for: "cal")
                #expect(reply.status == 200, "\(reply)")
            }
            #expect(JSONFields.balance(try await client.customer("cal")) == 500)

            // 1,000 spends of 1 coin, all in flight at once over (at most) 20 keep-alive connections.
            let replies = try await withThrowingTaskGroup(of: (String, HTTPReply).self) { group in
                for index in 0..<1_000 {
                    group.addTask {
                        let id = "cal-spend-\(index)"
                        return (id, try await client.spend(1, id: id, for: "cal"))
                    }
                }
                var all: [(String, HTTPReply)] = []
                for try await reply in group { all.append(reply) }
                return all
            }
            let recorded = replies.filter { $0.1.status == 200 }
            let refused = replies.filter { $0.1.status == 409 }
            #expect(recorded.count == 500)
            #expect(refused.count == 500)
            let other = replies.filter { $0.1.status != 200 && $0.1.status != 409 }
            #expect(other.isEmpty, "unexpected replies: \(other.prefix(3).map(\.1))")
            for (_, reply) in recorded {
                let spend = try reply.json()["spend"] as? [String: Any]
                #expect(spend?["outcome"] as? String == "recorded", "\(reply)")
                #expect(JSONFields.decimal(spend?["amount"]) == 1)
                #expect(JSONFields.balance(try reply.customer()).map { $0 >= 0 } == true)
            }
            for (_, reply) in refused {
                let error = try reply.error()
                #expect(error["code"] as? String == "insufficient_balance", "\(reply)")
                #expect(JSONFields.decimal(error["balance"]) == 0, "a spend of 1 was refused with coins left: \(reply)")
            }

            let final = try await client.customer("cal")
            #expect(JSONFields.balance(final) == 0)
            #expect(JSONFields.debt(final) == 0)
            let history = try await client.history("cal")
            let ledger = JSONFields.items(history, kind: "ledger")
            let spendIds = Set(ledger.filter { $0["entry"] as? String == "spend" }.compactMap { $0["id"] as? String })
            #expect(spendIds.count == 500)
            // A ledger id may carry the model's `spend:` prefix.
            let historySpends = Set(spendIds.map { $0.hasPrefix("spend:") ? String($0.dropFirst(6)) : $0 })
            #expect(historySpends == Set(recorded.map(\.0)), "the history's spends are the ones answered 200")
            // Oldest first, the running balance never drops below zero.
            var running: Decimal = 0
            var lowest: Decimal = 0
            for item in ledger.reversed() {
                let amount = JSONFields.decimal(item["amount"]).map { $0 < 0 ? -$0 : $0 } ?? 0
                running += item["entry"] as? String == "credit" ? amount : -amount
                lowest = min(lowest, running)
            }
            #expect(lowest == 0, "the history shows a negative balance (\(lowest))")
            #expect(running == 0)
        }

        @Test func theSameSpendIdAgainIsADuplicateAndAnotherAmountConflicts() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let client = fixture.client
            let (_, jws) = try market.buySigned("market.coins.10", account: "dan")
            #expect(try await client.postTransaction(jws, for: "dan").status == 200)
            let first = try await client.spend(4, id: "dan-1", for: "dan")
            #expect(first.status == 200, "\(first)")
            let again = try await client.spend(4, id: "dan-1", for: "dan")
            #expect(again.status == 200, "\(again)")
            #expect((try again.json()["spend"] as? [String: Any])?["outcome"] as? String == "duplicate")
            let conflicting = try await client.spend(5, id: "dan-1", for: "dan")
            #expect(conflicting.status == 409)
            #expect(conflicting.errorCode == "conflicting_id", "\(conflicting)")
            #expect(JSONFields.balance(try await client.customer("dan")) == 6)
            // Amounts are exact decimals: 0.1 + 0.2 spent from 6 leaves exactly 5.7.
            for (index, amount) in ["0.1", "0.2"].enumerated() {
                let body = Data(#"{"amount":\#(amount),"id":"dan-dec-\#(index)"}"#.utf8)
                let reply = try await client.send("POST", APIClient.customerPath("dan") + "/currencies/coins/spend",
                                                  key: fixture.keys.secretKey, body: body)
                #expect(reply.status == 200, "\(reply)")
                #expect(reply.text.contains(#""amount":\#(amount)"#), "\(reply)")
            }
            let exact = try await client.customerReply("dan")
            #expect(exact.text.contains(#""coins":5.7"#), "\(exact)")
            let zero = try await client.spend(0, id: "dan-2", for: "dan")
            #expect(zero.status == 400)
            #expect(zero.errorCode == "invalid_amount", "\(zero)")
            let unknown = try await client.spend(1, of: "gems", id: "dan-3", for: "dan")
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "unknown_currency", "\(unknown)")
        }
    }
}
