import Foundation
import Testing
@testable import TallyCore

private typealias F = RulesFixtures

@Suite("Ledger spends")
struct LedgerSpendTests {
    private func funded(_ coins: String = "app.coins.10") -> PurchaseHistory {
        PurchaseHistory(transactions: [F.purchase("c1", coins, at: F.start)])
    }

    private func record(_ spend: Spend, in history: inout PurchaseHistory) throws -> Bool {
        try history.record(spend, catalog: F.catalog, configuration: F.configuration)
    }

    @Test func sameSpendTwiceSpendsOnce() throws {
        var history = funded()
        let spend = Spend(id: "s1", currency: "coins", amount: 4, date: F.day(1))
        #expect(try record(spend, in: &history))
        #expect(try !record(spend, in: &history))
        #expect(history.spends.count == 1)
        #expect(Ledger(history: history, configuration: F.configuration).balance(of: "coins") == 6)
    }

    @Test func spendLargerThanBalanceIsRefused() throws {
        var history = funded()
        let error = try #require(throws: TallyError.self) {
            try record(Spend(id: "s1", currency: "coins", amount: 15, date: F.day(1)), in: &history)
        }
        #expect(error.code == .insufficientBalance)
        #expect(error.message.contains("balance is 10 coins, the spend needs 15"))
        #expect(history.spends.isEmpty)
    }

    @Test("an amount that would round away is refused: 10 - 1e-38 is 10 in a Decimal",
          arguments: ["1e-38", "0.000000001", "1e15"])
    func inexactSpendIsRefused(amount: String) throws {
        var history = funded()
        let value = try #require(Decimal(string: amount))
        let error = try #require(throws: TallyError.self) {
            try record(Spend(id: "s1", currency: "coins", amount: value, date: F.day(1)), in: &history)
        }
        #expect(error.code == .invalidValue)
        #expect(history.spends.isEmpty)
    }

    @Test func spendWithEightDecimalsIsExact() throws {
        var history = funded()
        #expect(try record(Spend(id: "s1", currency: "coins", amount: try #require(Decimal(string: "0.00000001")),
                                 date: F.day(1)), in: &history))
        #expect(Ledger(history: history, configuration: F.configuration).balance(of: "coins")
                == Decimal(string: "9.99999999"))
    }

    @Test func spendOfTheWholeBalanceIsAccepted() throws {
        var history = funded()
        #expect(try record(Spend(id: "s1", currency: "coins", amount: 10, date: F.day(1)), in: &history))
    }

    @Test func coinsBoughtLaterDoNotFundAnEarlierSpend() throws {
        var history = PurchaseHistory(transactions: [F.purchase("c1", "app.coins.10", at: F.day(2))])
        #expect(throws: TallyError.self) {
            try record(Spend(id: "s1", currency: "coins", amount: 5, date: F.day(1)), in: &history)
        }
    }

    @Test func laterSpendsAreAlreadyCommitted() throws {
        var history = funded()
        #expect(try record(Spend(id: "late", currency: "coins", amount: 8, date: F.day(5)), in: &history))
        let error = try #require(throws: TallyError.self) {
            try record(Spend(id: "early", currency: "coins", amount: 5, date: F.day(2)), in: &history)
        }
        #expect(error.code == .insufficientBalance)
    }

    @Test(arguments: [(Decimal(5), "dust"), (Decimal(6), "coins")])
    func reusedIdWithOtherValuesConflicts(amount: Decimal, currency: String) throws {
        var history = funded()
        #expect(try record(Spend(id: "s1", currency: "coins", amount: 5, date: F.day(1)), in: &history))
        let error = try #require(throws: TallyError.self) {
            try record(Spend(id: "s1", currency: currency, amount: amount, date: F.day(1)), in: &history)
        }
        #expect(error.code == .conflictingId)
        #expect(error.message.contains("s1"))
    }

    @Test(arguments: [(Decimal(0), "coins"), (Decimal(-3), "coins"), (Decimal(1), "gold"), (Decimal.nan, "coins")])
    func invalidSpendsAreRejected(amount: Decimal, currency: String) throws {
        var history = funded()
        let error = try #require(throws: TallyError.self) {
            try record(Spend(id: "s1", currency: currency, amount: amount, date: F.day(1)), in: &history)
        }
        #expect(error.code == .invalidValue)
        #expect(history.spends.isEmpty)
    }

    @Test func debtBlocksSpending() throws {
        var history = PurchaseHistory(
            transactions: [F.purchase("c1", "app.coins.10", at: F.start, revokedAt: F.day(2)),
                           F.purchase("c2", "app.coins.10", at: F.day(3))],
            spends: [Spend(id: "s1", currency: "coins", amount: 8, date: F.day(1))])
        let error = try #require(throws: TallyError.self) {
            try record(Spend(id: "s2", currency: "coins", amount: 3, date: F.day(4)), in: &history)
        }
        #expect(error.message.contains("the balance is 2 coins"))
        #expect(try record(Spend(id: "s3", currency: "coins", amount: 2, date: F.day(4)), in: &history))
    }
}
