import Foundation
import TallyCore
@testable import TallyServer
import TallyStorage
import Testing

private typealias F = StoreFixtures

/// A spend answers with the customer's encoded state after it (``CustomerStore/spend(id:currency:for:at:encoding:admit:)``).
/// PostgreSQL restates the state it kept, when servable, instead of reading the transactions, and keeps the state
/// after the spend in the spend's own write; the answer must always equal the state computed afresh.
@Suite("Customer store: spends answered with the state")
struct StoreSpendAnswerTests {
    private static let rules = CatalogRules(catalog: F.catalog, configuration: F.configuration)
    private static let encoding = EntitlementAPI.stateEncoding(rules: rules, fingerprint: "rules-a")
    /// A customer id with the text the restating looks for (escaped in the body, so never mistaken for the member).
    private static let trickyId = #"u,"balances":{"coins":1},"debts":{}"#

    private func spend(_ store: any CustomerStore, _ id: String, _ amount: Decimal, for customer: String,
                       at date: Date) throws -> SpendAnswer {
        try store.spend(id: id, currency: "coins", for: customer, at: date, encoding: Self.encoding) { existing, net in
            let spend = F.spend(id, amount, at: date)
            return try spend.admit(existing: existing, available: net) ? spend : nil
        }
    }

    private func fresh(_ store: any CustomerStore, _ customer: String, at date: Date) throws -> StoredCustomerState {
        Self.encoding.encode(try store.customerState(customer), date)
    }

    @Test(arguments: StoreKind.tested) func theAnswerIsTheStateAfterTheSpend(_ kind: StoreKind) throws {
        let database = try StoreUnderTest(kind)
        let store = try database.open()
        let customer = Self.trickyId
        _ = try store.record([F.coins("c1"), F.coins("c2"), F.premium("n1"), F.period("p1", original: "p1", month: 0)],
                             for: customer, policy: .transfer, at: F.start)
        let spends: [(id: String, amount: Decimal, duplicate: Bool)] = [
            ("s1", 5, false), ("s2", Decimal(string: "2.5")!, false), ("s1", 5, true), ("s3", 190, false), ("s4", 1, false),
        ]
        for (index, (id, amount, duplicate)) in spends.enumerated() {
            let date = F.day(1 + Double(index) / 10)
            let answer = try spend(store, id, amount, for: customer, at: date)
            let expected = try fresh(store, customer, at: date)
            #expect(answer.isDuplicate == duplicate, "\(id)")
            #expect(String(decoding: answer.state.body, as: UTF8.self) == String(decoding: expected.body, as: UTF8.self),
                    "the answer to \(id) is the state computed afresh after it")
            #expect(answer.state.version == expected.version)
            if store.keepsEncodedStates, !duplicate {
                #expect(try store.storedState(of: customer, fingerprint: Self.encoding.fingerprint, at: date) == answer.state,
                        "the state after \(id) is kept at its version by the spend's own write")
            }
        }
        // Overdrawn: refused, nothing written, what was kept stays right.
        let before = try store.storedState(of: customer, fingerprint: Self.encoding.fingerprint, at: F.day(2))
        #expect(throws: CustomerStoreError.self) { try spend(store, "s5", 100, for: customer, at: F.day(2)) }
        #expect(try store.storedState(of: customer, fingerprint: Self.encoding.fingerprint, at: F.day(2)) == before)
        #expect(try store.customerState(customer).nets["coins"] == 1.5)
    }

    /// A kept state marked in its facts: a spend that restates it answers with the mark.
    private func keepMarked(_ store: any CustomerStore, _ customer: String, fingerprint: String = "rules-a",
                            from: Date, until: Date) throws {
        let state = try fresh(store, customer, at: from)
        let text = String(decoding: state.body, as: UTF8.self)
        #expect(text.contains(#""nonConsumables":["app.premium"]"#))
        let marked = text.replacingOccurrences(of: #""nonConsumables":["app.premium"]"#, with: #""nonConsumables":["kept-mark"]"#)
        #expect(try store.keepState(StoredCustomerState(version: state.version, fingerprint: fingerprint, validFrom: from,
                                                        validUntil: until, body: Array(marked.utf8)), for: customer))
    }

    private func isMarked(_ answer: SpendAnswer) -> Bool {
        String(decoding: answer.state.body, as: UTF8.self).contains("kept-mark")
    }

    @Test(.enabled(if: PostgresTestDatabase.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
    func aServableKeptStateIsRestatedAndEverythingElseIsComputed() throws {
        let database = try StoreUnderTest(.postgres)
        let store = try database.open()
        let customer = "restated"
        _ = try store.record([F.coins("c1"), F.premium("n1")], for: customer, policy: .transfer, at: F.start)

        try keepMarked(store, customer, from: F.day(1), until: F.day(2))
        let restated = try spend(store, "s1", 30, for: customer, at: F.day(1.5))
        #expect(isMarked(restated), "the kept state stood for the transactions")
        #expect(String(decoding: restated.state.body, as: UTF8.self).hasSuffix(#""balances":{"coins":70},"debts":{}}"#))
        #expect(restated.state.validFrom == F.day(1) && restated.state.validUntil == F.day(2), "its window is the kept one's")
        #expect(try store.storedState(of: customer, fingerprint: "rules-a", at: F.day(1.5)) == restated.state)
        let again = try spend(store, "s2", 10, for: customer, at: F.day(1.6))
        #expect(isMarked(again), "the state a spend kept serves the next spend")
        #expect(String(decoding: try spend(store, "s2", 10, for: customer, at: F.day(1.6)).state.body, as: UTF8.self)
                == String(decoding: again.state.body, as: UTF8.self), "a duplicate answers with the kept state")

        let cases: [(String, () throws -> Date)] = [
            ("other rules", { try keepMarked(store, customer, fingerprint: "rules-b", from: F.day(1), until: F.day(2)); return F.day(1.7) }),
            ("its window passed", { try keepMarked(store, customer, from: F.day(1), until: F.day(2)); return F.day(2) }),
            ("a clock behind it", { try keepMarked(store, customer, from: F.day(1), until: F.day(2)); return F.day(0.9) }),
            ("a post since", {
                try keepMarked(store, customer, from: F.day(1), until: F.day(2))
                _ = try store.record([F.coins("c\(UUID().uuidString)")], for: customer, policy: .transfer, at: F.start)
                return F.day(1.8)
            }),
        ]
        for (index, (name, prepare)) in cases.enumerated() {
            let date = try prepare()
            let answer = try spend(store, "t\(index)", 1, for: customer, at: date)
            #expect(!isMarked(answer), "\(name): computed, not restated")
            #expect(answer.state.body == (try fresh(store, customer, at: date)).body, "\(name)")
        }
    }

    @Test func restatingTheNetsEqualsEncodingThem() throws {
        let history = PurchaseHistory(transactions: [F.premium("n1").transaction, F.period("p1", original: "p1", month: 0).transaction])
        for customer in ["plain", Self.trickyId, "caf\u{E9}\\\",\"balances\":"] {
            for (before, after) in [([:], ["coins": Decimal(-5)]), (["coins": Decimal(3)], ["coins": Decimal(string: "0.25")!]),
                                    (["coins": Decimal(-1)], [:])] as [([String: Decimal], [String: Decimal])] {
                let record = CustomerRecord(appUserId: customer, transactions: [], version: 1, nets: before)
                var whole = record
                whole.transactions = history.transactions.map { F.signed($0) }
                let kept = Self.encoding.encode(whole, F.day(1))
                whole.nets = after
                let expected = Self.encoding.encode(whole, F.day(1)).body
                #expect(Self.encoding.restate(kept.body, after) == expected, "\(customer): \(before) → \(after)")
            }
        }
        #expect(Self.encoding.restate(Array(#"{"appUserId":"x"}"#.utf8), [:]) == nil,
                "a body without the nets is not restated")
    }
}
