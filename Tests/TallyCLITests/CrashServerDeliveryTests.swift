import Foundation
import Tally
import Testing

/// With a server link, a transaction is finished only after the server took it: a real harness process linked
/// to a real `tally serve` is killed (SIGKILL) at each delivery step — "posted but not finished" included —
/// and relaunched twice; the server and the customer file must each credit it exactly once.
@Suite("Crash-safe delivery through a server link, SIGKILL at each step")
struct CrashServerDeliveryTests {
    static let user = "crash-user"

    /// A harness and a server trusting its sandbox, linked.
    private func linked() throws -> (CrashHarness, LinkedServer) {
        let harness = try CrashHarness()
        let server = try LinkedServer(trusting: harness.sandbox)
        harness.link(to: server, user: Self.user)
        return (harness, server)
    }

    @Test("a consumable killed mid-delivery is credited once on the server and once locally",
          arguments: DeliveryStep.allCases)
    func consumable(step: DeliveryStep) async throws {
        let (harness, server) = try linked()
        let transactionId = try harness.buyAndKill(CrashDeliveryTests.coins, at: step.rawValue)
        let expected = CrashHarness.LinkedState(coins: 10, localCoins: 10, transactions: 1, unfinished: 0,
                                                premium: false, source: "server")
        #expect(try harness.relaunchLinked() == expected)
        #expect(try harness.relaunchLinked() == expected)
        #expect(try await server.coins(Self.user) == 10)
        #expect(try await server.transactionIds(Self.user) == [transactionId])
    }

    @Test("a non-consumable killed mid-delivery is owned once on the server and locally",
          arguments: [DeliveryStep.written, .posted, .finished])
    func nonConsumable(step: DeliveryStep) async throws {
        let (harness, server) = try linked()
        let transactionId = try harness.buyAndKill(CrashDeliveryTests.premium, at: step.rawValue)
        let expected = CrashHarness.LinkedState(coins: 0, localCoins: 0, transactions: 1, unfinished: 0,
                                                premium: true, source: "server")
        #expect(try harness.relaunchLinked() == expected)
        #expect(try await server.customer(Self.user)["nonConsumables"] as? [String] == [CrashDeliveryTests.premium])
        #expect(try await server.transactionIds(Self.user) == [transactionId])
    }

    @Test("killed after the post of a second purchase: both credited once")
    func secondPurchasePosted() async throws {
        let (harness, server) = try linked()
        _ = try harness.buy(CrashDeliveryTests.coins)
        _ = try harness.buyAndKill(CrashDeliveryTests.coins, at: DeliveryStep.posted.rawValue)
        let expected = CrashHarness.LinkedState(coins: 20, localCoins: 20, transactions: 2, unfinished: 0,
                                                premium: false, source: "server")
        #expect(try harness.relaunchLinked() == expected)
        #expect(try await server.coins(Self.user) == 20)
        #expect(try await server.transactionIds(Self.user).count == 2)
    }
}
