import Foundation
import Testing
@testable import TallyCore

private typealias F = RulesFixtures

/// `CustomerState.ledger` is built on first read when the rules made the state; these check that the public
/// surface behaves as a plain stored array: equality, hashing, JSON, and assignment.
@Suite("CustomerState ledger built on first read")
struct CustomerStateLedgerTests {
    private static func history() -> [StoreTransaction] {
        [F.purchase("c1", "app.coins.10", at: F.start, quantity: 2),
         F.purchase("c2", "app.coins.100", at: F.day(1), revokedAt: F.day(3)),
         F.purchase("c3", "app.coins.10", at: F.day(2))]
    }

    private static func computed() -> CustomerState {
        F.state(history(), spends: [Spend(id: "s1", currency: "coins", amount: 5, date: F.day(2))], at: F.day(4))
    }

    /// The same state with its ledger given as an array instead of built on first read.
    private static func materialized(_ state: CustomerState) -> CustomerState {
        CustomerState(date: state.date, entitlements: state.entitlements, nonConsumables: state.nonConsumables,
                      subscriptions: state.subscriptions, nonRenewing: state.nonRenewing, balances: state.balances,
                      debts: state.debts, ledger: state.ledger,
                      introductoryOfferUsedGroups: state.introductoryOfferUsedGroups, warnings: state.warnings)
    }

    @Test func ledgerMatchesTheLedgerType() {
        let state = Self.computed()
        let ledger = Ledger(history: PurchaseHistory(transactions: Self.history(), spends: [
            Spend(id: "s1", currency: "coins", amount: 5, date: F.day(2))]), catalog: F.catalog,
                            configuration: F.configuration, through: F.day(4))
        #expect(state.ledger == ledger.entries)
        #expect(state.ledger.map(\.id) == ["credit:c1", "credit:c2", "credit:c3", "spend:s1", "clawback:c2"])
    }

    @Test func equalAndSameHashAsAMaterializedState() {
        let lazy = Self.computed()
        let fresh = Self.computed()
        let given = Self.materialized(Self.computed())
        #expect(lazy == given)
        #expect(lazy.hashValue == given.hashValue)
        #expect(Set([lazy, fresh, given]).count == 1)
        var other = given
        other.ledger.removeLast()
        #expect(lazy != other)
    }

    @Test func encodesTheLedgerUnderItsName() throws {
        let state = Self.computed()
        let data = try JSONEncoder().encode(state)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let ledger = try #require(object["ledger"] as? [[String: Any]])
        #expect(ledger.count == 5)
        #expect(object["ledgerStorage"] == nil)
        let decoded = try JSONDecoder().decode(CustomerState.self, from: data)
        #expect(decoded == state)
        #expect(decoded.ledger == state.ledger)
    }

    @Test func assignmentReplacesTheBuiltLedger() {
        var state = Self.computed()
        let copy = state
        state.ledger = []
        #expect(state.ledger.isEmpty)
        #expect(copy.ledger.count == 5)
        #expect(state.balance("coins") == copy.balance("coins"))
    }

    /// Spend ids compare as UTF-8 bytes, as the stores compare them: canonically equal spellings are two spends.
    @Test func canonicallyEqualSpendIdsAreTwoSpends() {
        let spends = [Spend(id: "caf\u{E9}", currency: "coins", amount: 5, date: F.day(2)),
                      Spend(id: "cafe\u{301}", currency: "coins", amount: 5, date: F.day(2)),
                      Spend(id: "other", currency: "coins", amount: 2, date: F.day(2))]
        let state = F.state(Self.history(), spends: spends, at: F.day(4))
        #expect(state.balance("coins") == 18)  // credits 20 + 10 (c2 refunded), spends 5 + 5 + 2
        #expect(state.ledger.filter { $0.kind == .spend }.count == 3)
    }
}
