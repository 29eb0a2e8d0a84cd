import Foundation
import Tally
import Testing

/// A transaction is finished only after its effect is durably written: a real harness process is killed
/// (SIGKILL) at each delivery step, relaunched twice, and the purchase must be credited exactly once.
@Suite("Crash-safe delivery, SIGKILL at each step")
struct CrashDeliveryTests {
    static let coins = "market.coins.10"
    static let premium = "market.premium"
    /// The steps of an engine without a server link (``DeliveryStep/posted`` needs one).
    static let localSteps = DeliveryStep.allCases.filter { $0 != .posted }

    @Test("a consumable killed mid-delivery credits exactly once after restart", arguments: localSteps)
    func consumable(step: DeliveryStep) throws {
        let harness = try CrashHarness()
        let transactionId = try harness.buyAndKill(Self.coins, at: step.rawValue)
        #expect(!transactionId.isEmpty)
        let expected = CrashHarness.State(coins: 10, transactions: 1, unfinished: 0, premium: false)
        #expect(try harness.relaunch() == expected)
        #expect(try harness.relaunch() == expected)
    }

    @Test("a non-consumable killed mid-delivery stays unlocked once after restart", arguments: localSteps)
    func nonConsumable(step: DeliveryStep) throws {
        let harness = try CrashHarness()
        _ = try harness.buyAndKill(Self.premium, at: step.rawValue)
        let expected = CrashHarness.State(coins: 0, transactions: 1, unfinished: 0, premium: true)
        #expect(try harness.relaunch() == expected)
        #expect(try harness.relaunch() == expected)
    }

    @Test("a kill during the second purchase leaves the first credited once and credits the second once",
          arguments: localSteps)
    func secondPurchase(step: DeliveryStep) throws {
        let harness = try CrashHarness()
        #expect(try harness.buy(Self.coins) == CrashHarness.State(coins: 10, transactions: 1, unfinished: 0, premium: false))
        _ = try harness.buyAndKill(Self.coins, at: step.rawValue)
        let expected = CrashHarness.State(coins: 20, transactions: 2, unfinished: 0, premium: false)
        #expect(try harness.relaunch() == expected)
        #expect(try harness.relaunch() == expected)
    }

    @Test("an unknown pause step is refused with a usage error")
    func unknownStep() throws {
        let harness = try CrashHarness()
        let process = Process()
        process.executableURL = CrashHarness.executable
        process.arguments = ["state", harness.sandbox.path, harness.app.path]
        process.environment = ["TALLY_DELIVERY_PAUSE": "delivered"]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = Pipe()
        try process.run()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(message.contains("'delivered' is not a delivery step"))
    }
}
