import Foundation
import Testing

extension MarketSandbox {
    /// Runs an SQL statement on the sandbox database with the `sqlite3` tool (the file stays readable).
    func sqlite(_ statement: String) throws {
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        tool.arguments = [directory.appendingPathComponent("sandbox.sqlite").path, statement]
        try tool.run()
        tool.waitUntilExit()
        guard tool.terminationStatus == 0 else { throw CLITestError("sqlite3 failed: \(statement)") }
    }
}

@Suite("tally sandbox storage: state survives, concurrent writers lose nothing, commands read only their account")
struct SandboxStorageCLITests {
    @Test func theSandboxClockAdvancingWhileTheMarketBuysLosesNeitherSide() async throws {
        let store = try MarketSandbox()
        let buys = 12, advances = 12
        let data = store.directory.path
        async let bought: [Int32] = Task.detached {
            try (0..<buys).map { _ in try TallyProcess.run(["market", "buy", "market.coins.10", "--data", data]).status }
        }.value
        async let advanced: [Int32] = Task.detached {
            try (0..<advances).map { _ in try TallyProcess.run(["sandbox", "advance", "1d", "--data", data]).status }
        }.value
        let (buyStatuses, advanceStatuses) = try await (bought, advanced)
        #expect(buyStatuses.allSatisfy { $0 == 0 })
        #expect(advanceStatuses.allSatisfy { $0 == 0 })

        let state = try store.run("state", "--json").json()
        #expect((state["balances"] as? [String: Any])?["coins"] as? Int == 10 * buys)
        let history = try store.run("history", "--json").json()
        #expect((history["transactions"] as? [[String: Any]])?.count == buys)
        let storeWide = try store.run("history", "--json", "--account", "").json()
        let kinds = (storeWide["events"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(kinds.filter { $0 == "clockAdvanced" }.count == advances)
        let status = try store.marketStatus()
        #expect((status["balances"] as? [String: Any])?["coins"] as? Int == 10 * buys)
        // Every event number once, in order, across both writers.
        let all = try store.run("history", "--json").json()["events"] as? [[String: Any]] ?? []
        let sequences = (all + (storeWide["events"] as? [[String: Any]] ?? [])).compactMap { $0["sequence"] as? Int }
        #expect(Set(sequences).count == sequences.count)
    }

    @Test func stateSurvivesAcrossProcessesAndTheClockIsTheSandboxs() throws {
        let store = try MarketSandbox(start: "2026-01-01T09:00:00Z")
        #expect(try store.market("buy", "market.pro.monthly").status == 0)
        #expect(try store.run("advance", "1M").status == 0)
        let history = try store.run("history", "--json").json()
        #expect((history["transactions"] as? [[String: Any]])?.count == 2)
        #expect((history["now"] as? String)?.hasPrefix("2026-02-01T09:00:00") == true, "\(history["now"] ?? "")")
        let status = try store.marketStatus()
        #expect(Features.of(status)?.contains("pro") == true, "\(status)")
    }

    @Test func commandsOnOneAccountNeverReadAnotherAccountsRows() throws {
        let store = try MarketSandbox()
        #expect(try store.market("buy", "market.pro.monthly", "--account", "ann").status == 0)
        #expect(try store.market("buy", "market.premium", "--account", "bob").status == 0)
        #expect(try store.run("advance", "2M").status == 0)
        // Make every row of bob's unreadable: a command that reads bob's account fails loudly.
        try store.sqlite("UPDATE transactions SET body = 'damaged' WHERE account = 'bob'")
        try store.sqlite("UPDATE accounts SET body = 'damaged' WHERE name = 'bob'")

        let status = try store.market("status", "--json", "--account", "ann")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(try store.market("buy", "market.coins.10", "--account", "ann").status == 0)
        #expect(try store.run("state", "--account", "ann").status == 0)
        #expect(try store.run("history", "--account", "ann").status == 0)
        #expect(try store.run("buy", "market.coins.10", "--account", "ann").status == 0)
        #expect(try store.run("fail", "products", "network-error").status == 0)
        // The damage is real: what reads every account (the clock moving all subscriptions) reports it.
        let advance = try store.run("advance", "1d")
        #expect(advance.status == 2)
        #expect(advance.stderr.contains("sandbox.sqlite"))
    }
}
