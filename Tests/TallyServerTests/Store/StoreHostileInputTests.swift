import Foundation
import TallyCore
@testable import TallyServer
import TallyStorage
import Testing

private typealias F = StoreFixtures

@Suite("Customer store (SQLite and PostgreSQL): hostile ids are data")
struct StoreHostileInputTests {
    static let ids: [String] = [
        "o'brien", "\"quoted\"", "x'); DROP TABLE customers; --", "'; DROP TABLE transactions; --",
        "Robert'); DELETE FROM spends WHERE ('1'='1", "?1 ?2 :name @x $y", "%2F/..%00", "", "nul\u{0}byte", "\u{0}",
        "ünïcödé 用户 🧾👩🏽‍💻", "e\u{301}", "\u{E9}", String(repeating: "🧾", count: 2_560),
        String(repeating: "a'b\"c;", count: 1_750),
    ]

    @Test(arguments: StoreKind.tested, ids)
    func anIdRoundTripsByteForByte(_ kind: StoreKind, _ id: String) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        _ = try store.record([F.coins("bystander-1")], for: "bystander", policy: .transfer, at: F.start)
        let bystander = try store.customer("bystander")
        let token = id.isEmpty ? nil : id
        let transaction = F.signed(StoreTransaction(
            transactionId: id, originalTransactionId: id + "-chain", productId: id + "-product",
            purchaseDate: F.start, type: .consumable, appAccountToken: token,
            unknownFields: [id.isEmpty ? "empty" : id: .string(id)]))
        let user = id.isEmpty ? "empty-user" : id
        #expect(try store.record([transaction], for: user, policy: .transfer, at: F.start).inserted.map { Array($0.utf8) } == [Array(id.utf8)])
        let spend = Spend(id: id, currency: id + "-currency", amount: Decimal(string: "0.000001") ?? 1, date: F.start)
        _ = try store.spend(id: spend.id, currency: spend.currency, for: user) { _, _ in spend }
        let record = try store.customer(user)
        let stored = try #require(record.transactions.first)
        #expect(Array(record.appUserId.utf8) == Array(user.utf8))
        #expect(Array(stored.transaction.transactionId.utf8) == Array(id.utf8))
        #expect(Array(stored.transaction.originalTransactionId.utf8) == Array((id + "-chain").utf8))
        #expect(stored.transaction.appAccountToken.map { Array($0.utf8) } == token.map { Array($0.utf8) })
        #expect(stored == transaction)
        #expect(record.spends == [spend])
        #expect(Array(try #require(record.spends.first).id.utf8) == Array(id.utf8))
        #expect(try store.record([transaction], for: user, policy: .transfer, at: F.start).unchanged.count == 1)
        #expect(try store.customer("bystander") == bystander)
    }

    @Test(arguments: StoreKind.tested) func differentNormalizationsAreDifferentCustomers(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        let composed = "\u{E9}", decomposed = "e\u{301}"
        _ = try store.record([F.coins("t1")], for: composed, policy: .keep, at: F.start)
        let outcome = try store.record([F.coins("t1")], for: decomposed, policy: .keep, at: F.start)
        #expect(outcome == RecordOutcome(kept: ["t1"]))
        #expect(try store.customer(decomposed).transactions.isEmpty)
        #expect(try store.customer(composed).transactions.count == 1)
    }
}
