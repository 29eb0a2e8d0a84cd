import Foundation
import Testing

/// A `tally market` kept running: lines are written to its standard input one at a time and its output is
/// read as it comes, so a test can act on the sandbox side while the market runs.
final class RunningMarket: Sendable {
    private let process: Process
    private let input: FileHandle
    private let output = Buffer()

    init(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = TallyProcess.productsDirectory.appendingPathComponent("tally")
        process.arguments = ["market"] + arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stdout
        stdout.fileHandleForReading.readabilityHandler = { [output] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.append(text)
        }
        try process.run()
        self.process = process
        input = stdin.fileHandleForWriting
    }

    /// What the market printed so far.
    var text: String { output.text }

    /// Types a line into the market.
    func send(_ line: String) {
        input.write(Data((line + "\n").utf8))
    }

    /// Waits until the output contains `expected`; gives up (and returns false) after a minute so a broken
    /// market fails the test instead of hanging it.
    func waitFor(_ expected: String) -> Bool {
        let giveUp = Date().addingTimeInterval(60)
        while Date() < giveUp {
            if text.contains(expected) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// The output read so far, shared with the pipe's reading handler.
    ///
    /// `@unchecked Sendable`: `value` is read and written only while holding `lock`.
    private final class Buffer: @unchecked Sendable {
        private let lock = NSLock()
        private var value = ""
        func append(_ text: String) { lock.withLock { value += text } }
        var text: String { lock.withLock { value } }
    }

    /// Sends `quit` and waits for the process to end; returns its exit status.
    func quit() throws -> Int32 {
        send("quit")
        try input.close()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

@Suite("tally market: events from the App Store side arrive while it runs")
struct MarketLiveTests {
    @Test func aPromotedPurchaseAndAMessageFromTheSandboxShowUpInTheRunningMarket() throws {
        let store = try MarketSandbox()
        let market = try RunningMarket(["--data", store.directory.path])
        #expect(market.waitFor("Commands:"))
        #expect(try store.run("promote", "market.premium").status == 0)
        #expect(market.waitFor("the customer started buying market.premium there"), "\(market.text)")
        market.send("buy market.premium")
        #expect(market.waitFor("event: purchased market.premium"), "\(market.text)")
        #expect(try store.run("message", "billing-issue").status == 0)
        #expect(market.waitFor("App Store message (billingIssue, message-1)"), "\(market.text)")
        #expect(try market.quit() == 0)
        #expect(try store.run("promote").stdout.contains("taken by the app"))
    }

    @Test func anApprovalInTheSandboxShowsUpInTheRunningMarket() throws {
        let store = try MarketSandbox()
        #expect(try store.run("set", "ask-to-buy", "on").status == 0)
        let market = try RunningMarket(["--data", store.directory.path])
        market.send("buy market.coins.100")
        #expect(market.waitFor("Pending: purchase purchase-1"))
        #expect(try store.run("approve", "purchase-1").status == 0)
        #expect(market.waitFor("event: purchased market.coins.100"))
        #expect(market.waitFor("event: balanceChanged coins 100"), "\(market.text)")
        market.send("status")
        #expect(market.waitFor("COINS: 100"))
        #expect(try market.quit() == 0)
        #expect(market.text.contains("context screen=market"))
    }

    @Test func aSubscriptionEndingAsTheSandboxClockMovesShowsInTheRunningMarket() throws {
        let store = try MarketSandbox()
        #expect(try store.market("buy", "market.pro.monthly").status == 0)
        #expect(try store.run("auto-renew", "market.pro.monthly", "off").status == 0)
        let market = try RunningMarket(["--data", store.directory.path])
        #expect(market.waitFor("Features: plus, pro"))
        #expect(try store.run("advance", "1M").status == 0)
        #expect(market.waitFor("event: expired market.pro.monthly"), "\(market.text)")
        market.send("status")
        #expect(market.waitFor("market.pro.monthly: expired since"))
        #expect(try market.quit() == 0)
    }
}
