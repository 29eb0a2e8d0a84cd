import Foundation
import Testing

extension MarketSandbox {
    /// The kinds and details of the sandbox's event log (`sandbox history --json`, account "" for store-wide).
    func storeEvents(account: String = "default") throws -> [(kind: String, detail: String)] {
        let history = try run("history", "--json", "--account", account)
        guard history.status == 0 else { throw CLITestError("history failed: \(history.stderr)") }
        let events = try history.json()["events"] as? [[String: Any]] ?? []
        return events.map { ($0["kind"] as? String ?? "", $0["detail"] as? String ?? "") }
    }

    /// The faults still queued in the store row of `sandbox.sqlite`, read with the `sqlite3` tool.
    func queuedFaults() throws -> [[String: Any]] {
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        tool.arguments = [directory.appendingPathComponent("sandbox.sqlite").path, "SELECT body FROM store"]
        let pipe = Pipe()
        tool.standardOutput = pipe
        try tool.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        tool.waitUntilExit()
        guard tool.terminationStatus == 0 else { throw CLITestError("sqlite3 failed on the sandbox database") }
        let state = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (state?["settings"] as? [String: Any])?["faults"] as? [[String: Any]] ?? []
    }
}

@Suite("tally sandbox fail: injected faults wear off, are logged and can be cleared")
struct SandboxFaultCLITests {
    @Test func aProductsFaultFailsTheNextMarketBuysOnlyAsManyTimesAsCounted() throws {
        let store = try MarketSandbox()
        #expect(try store.run("fail", "products", "network-error", "--count", "2").status == 0)
        for _ in 0..<2 {
            let failed = try store.market("buy", "market.coins.10")
            #expect(failed.status == 1)
            #expect(failed.stderr.contains("network error"), "\(failed.stderr)")
        }
        let bought = try store.market("buy", "market.coins.10", "--json")
        #expect(bought.status == 0, "\(bought.stderr)")
        #expect(try bought.json()["outcome"] as? String == "purchased")
        #expect(try store.queuedFaults().isEmpty)
        let failures = try store.storeEvents(account: "").filter { $0.kind == "failed" }
        #expect(failures.count == 2)
        #expect(failures.allSatisfy { $0.detail.contains("products") })
    }

    @Test func aRestoreFaultFailsOneMarketRestoreAndIsLogged() throws {
        let store = try MarketSandbox()
        #expect(try store.market("buy", "market.premium").status == 0)
        #expect(try store.run("fail", "restore", "system-error").status == 0)
        let failed = try store.market("restore")
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("system error"), "\(failed.stderr)")
        let restored = try store.market("restore")
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("Restored market.premium"))
        #expect(try store.storeEvents().contains { $0.kind == "failed" && $0.detail.contains("restore") })
        #expect(try store.queuedFaults().isEmpty)
    }

    @Test func theSandboxsOwnProductsAndRestoreCommandsCountTheirFaultsToo() throws {
        let store = try MarketSandbox()
        #expect(try store.run("fail", "products", "not-available").status == 0)
        #expect(try store.run("products").status == 1)
        #expect(try store.run("products").status == 0)
        #expect(try store.run("fail", "restore", "network-error").status == 0)
        #expect(try store.run("restore").status == 1)
        #expect(try store.run("restore").status == 0)
        #expect(try store.queuedFaults().isEmpty)
    }

    @Test func faultsAreClearedWithNoneOrACountOfZero() throws {
        let store = try MarketSandbox()
        #expect(try store.run("fail", "products", "network-error", "--count", "5").status == 0)
        let cleared = try store.run("fail", "products", "none")
        #expect(cleared.status == 0)
        #expect(cleared.stdout.contains("1 fault cleared"))
        #expect(try store.market("products").status == 0)
        #expect(try store.run("fail", "restore", "system-error", "--count", "3").status == 0)
        #expect(try store.run("fail", "restore", "system-error", "--count", "0").status == 0)
        #expect(try store.market("restore").status == 0)
        #expect(try store.queuedFaults().isEmpty)
        #expect(try store.run("fail", "restore", "gremlins", "--count", "0").status == 2)
        #expect(try store.run("fail", "restore", "system-error", "--count", "-1").status == 2)
    }
}
