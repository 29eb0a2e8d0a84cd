import Foundation
import Testing

extension MarketSandbox {
    /// The output of an SQL query on the sandbox database, by the `sqlite3` tool.
    func sqliteQuery(_ statement: String) throws -> String {
        let tool = Process()
        let out = Pipe()
        tool.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        tool.arguments = [directory.appendingPathComponent("sandbox.sqlite").path, statement]
        tool.standardOutput = out
        try tool.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        tool.waitUntilExit()
        guard tool.terminationStatus == 0 else { throw CLITestError("sqlite3 failed: \(statement)") }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// `tally sandbox refund-request` / `refund-reverse`, and the order ids kept in `sandbox.sqlite`.
@Suite struct SandboxRefundRequestCLITests {
    private func transactions(_ sandbox: MarketSandbox) throws -> [[String: Any]] {
        (try sandbox.run("history", "--json").json()["transactions"] as? [[String: Any]] ?? [])
            .compactMap { $0["transaction"] as? [String: Any] }
    }

    private func kinds(_ sandbox: MarketSandbox) throws -> [String] {
        (try sandbox.run("history", "--json").json()["events"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
    }

    @Test func aRefundRequestIsDecidedThenReversed() throws {
        let sandbox = try MarketSandbox()
        #expect(try sandbox.run("buy", "market.coins.10").status == 0)
        #expect(try sandbox.run("buy", "market.premium").status == 0)
        let all = try transactions(sandbox)
        let coin = try #require(all.first?["transactionId"] as? String)
        let premium = try #require(all.last?["transactionId"] as? String)

        let refused = try sandbox.run("refund-request", premium)
        #expect(refused.status == 1 && refused.stderr.contains("consumables and auto-renewable"), "\(refused.stderr)")
        #expect(try sandbox.run("refund-request", coin, "--decide", "approve").status == 1, "no open request")
        #expect(try sandbox.run("refund-request", coin, "--reason", "because").status == 2)
        #expect(try sandbox.run("refund-request", "999").status == 2)
        #expect(try sandbox.run("refund-reverse", coin).status == 1, "nothing to reverse")

        let made = try sandbox.run("refund-request", coin, "--reason", "fulfillment-issue", "--json")
        #expect(made.status == 0)
        let request = (try made.json()["requests"] as? [[String: Any]])?.first
        #expect(request?["reason"] as? String == "FULFILLMENT_ISSUE" && request?["decision"] == nil)
        #expect(try sandbox.run("refund-request", coin, "--reason", "other").status == 1, "one open request at a time")
        #expect(try sandbox.run("refund-request", coin, "--decide", "auto").status == 0)
        let refunded = try transactions(sandbox).first { $0["transactionId"] as? String == coin }
        #expect(refunded?["revocationDate"] != nil, "no consumption information: approved")
        #expect(try sandbox.run("refund-reverse", coin).status == 0)
        let reversed = try transactions(sandbox).first { $0["transactionId"] as? String == coin }
        #expect(reversed?["revocationDate"] == nil && reversed?["revocationReason"] == nil)
        let log = try kinds(sandbox)
        #expect(Array(log.suffix(3)) == ["refundRequested", "refunded", "refundReversed"])
        let state = try sandbox.run("state", "--json").json()
        #expect((state["balances"] as? [String: Any])?["coins"] as? Int == 10, "the reversal gives the coins back")
    }

    @Test func aFormatTwoDatabaseGetsOrderIdsWhenOpened() throws {
        let sandbox = try MarketSandbox()
        for _ in 0..<3 { #expect(try sandbox.run("buy", "market.coins.10").status == 0) }
        let before = (try sandbox.run("history", "--json").json()["transactions"] as? [[String: Any]] ?? [])
            .compactMap { $0["orderId"] as? String }
        #expect(before.count == 3 && Set(before).count == 3)
        // The layout as it was before order ids (and the notification outbox after them): format 2.
        try sandbox.sqlite("DROP TABLE notifications; DROP INDEX transactions_by_order; ALTER TABLE transactions DROP COLUMN order_id; UPDATE store SET format = 2")
        #expect(try sandbox.sqliteQuery("SELECT format FROM store") == "2")
        let after = (try sandbox.run("history", "--json").json()["transactions"] as? [[String: Any]] ?? [])
            .compactMap { $0["orderId"] as? String }
        #expect(after == before, "the migration gives each transaction the order id it had")
        #expect(try sandbox.sqliteQuery("SELECT format FROM store") == "4", "every step ran: order ids, then the outbox")
        #expect(try sandbox.sqliteQuery("SELECT COUNT(*) FROM transactions WHERE order_id IS NULL") == "0")
        #expect(try sandbox.sqliteQuery("SELECT order_id FROM transactions ORDER BY position").split(separator: "\n").map(String.init) == before)
        #expect(try sandbox.run("buy", "market.coins.10").status == 0, "and it is written to afterwards")
        #expect(try sandbox.sqliteQuery("SELECT COUNT(DISTINCT order_id) FROM transactions") == "4")
    }
}
