import Foundation
import Testing
@testable import TallyCore

private typealias F = RulesFixtures

@Suite("Ledger credits and claw-backs")
struct LedgerTests {
    @Test func creditsAmountTimesQuantity() {
        let state = F.state([F.purchase("c1", "app.coins.10", at: F.start, quantity: 3),
                             F.purchase("c2", "app.coins.100", at: F.day(1))], at: F.day(2))
        #expect(state.balance("coins") == 130)
        #expect(state.ledger.map(\.id) == ["credit:c1", "credit:c2"])
        #expect(state.ledger.map(\.amount) == [30, 100])
        #expect(state.debts.isEmpty)
    }

    @Test func amountsAreExactDecimals() {
        let state = F.state([F.purchase("d1", "app.dust", at: F.start, quantity: 3),
                             F.purchase("d2", "app.dust", at: F.start), F.purchase("d3", "app.dust", at: F.start)],
                            at: F.day(1))
        #expect(state.balance("dust") == Decimal(string: "0.5"))
    }

    @Test func transactionSeenTwiceCreditsOnce() {
        let coins = F.purchase("c1", "app.coins.10", at: F.start)
        let state = F.state([coins, coins, coins], at: F.day(1))
        #expect(state.balance("coins") == 10)
        #expect(state.ledger.count == 1)
    }

    @Test func laterSignedCopyWinsOverLaterPosition() {
        let newer = F.purchase("c1", "app.coins.10", at: F.start, quantity: 2, signed: F.day(3))
        let older = F.purchase("c1", "app.coins.10", at: F.start, quantity: 5, signed: F.day(1))
        #expect(F.state([newer, older], at: F.day(4)).balance("coins") == 20)
    }

    @Test func refundClawsBackWithoutDebt() {
        let history = [F.purchase("c1", "app.coins.10", at: F.start),
                       F.purchase("c2", "app.coins.10", at: F.day(1), revokedAt: F.day(5))]
        #expect(F.state(history, at: F.day(4)).balance("coins") == 20)
        let after = F.state(history, at: F.day(6))
        #expect(after.balance("coins") == 10)
        #expect(after.debts.isEmpty)
        let clawback = after.ledger.last
        #expect(clawback == LedgerEntry(id: "clawback:c2", kind: .clawback, currency: "coins", amount: -10,
                                        date: F.day(5), transactionId: "c2"))
    }

    @Test func refundOfSpentCoinsLeavesADebt() {
        let history = PurchaseHistory(
            transactions: [F.purchase("c1", "app.coins.10", at: F.start, revokedAt: F.day(2))],
            spends: [Spend(id: "s1", currency: "coins", amount: 8, date: F.day(1))])
        let state = CustomerState(catalog: F.catalog, configuration: F.configuration, history: history, at: F.day(3))
        #expect(state.balance("coins") == 0)
        #expect(state.debts == ["coins": 8])
        let ledger = Ledger(history: history, configuration: F.configuration, through: F.day(3))
        #expect(ledger.net(of: "coins") == -8)
        #expect(ledger.debt(of: "coins") == 8)
        #expect(ledger.net(of: "coins", asOf: F.day(1)) == 2)
    }

    @Test func onlyEntriesDatedByNowCount() {
        let history = PurchaseHistory(transactions: [F.purchase("c1", "app.coins.100", at: F.start)],
                                      spends: [Spend(id: "late", currency: "coins", amount: 30, date: F.day(5))])
        let state = CustomerState(catalog: F.catalog, configuration: F.configuration, history: history, at: F.day(4))
        #expect(state.balance("coins") == 100)
        #expect(state.ledger.map(\.id) == ["credit:c1"])
        #expect(state.balances["dust"] == 0)
    }

    @Test func entriesSortByDateThenId() {
        let state = F.state([F.purchase("b", "app.coins.10", at: F.day(1)), F.purchase("z", "app.coins.10", at: F.start),
                             F.purchase("a", "app.coins.10", at: F.day(1))], at: F.day(2))
        #expect(state.ledger.map(\.id) == ["credit:z", "credit:a", "credit:b"])
    }

    @Test func problemsBecomeWarningsNotCredits() {
        let history = PurchaseHistory(transactions: [F.purchase("c0", "app.coins.10", at: F.start, quantity: 0)],
                                      spends: [Spend(id: "x", currency: "gold", amount: 1, date: F.start)])
        let state = CustomerState(catalog: F.catalog, configuration: F.configuration, history: history, at: F.day(1))
        #expect(state.balance("coins") == 0)
        #expect(state.debts == ["gold": 1])
        #expect(state.warnings.count == 2)
    }

    @Test func hugeQuantitiesSumExactlyWithoutOverflow() {
        let half = Int.max / 2 + 1
        let state = F.state([F.purchase("h1", "app.coins.10", at: F.start, quantity: half),
                             F.purchase("h2", "app.coins.10", at: F.start, quantity: half),
                             F.purchase("h3", "app.coins.10", at: F.start, quantity: 1)], at: F.day(1))
        let expected = Decimal(10) * (Decimal(half) * 2 + 1)
        #expect(state.balance("coins") == expected)
    }
}
