import Foundation
import Testing
@testable import TallyCore

/// Which copy of a transaction counts: newer facts win, one rule for the engine, the rules and the server.
@Suite struct NewerFactsTests {
    private typealias F = RulesFixtures

    private static func copy(signed: Double?, revoked: Bool) -> StoreTransaction {
        F.purchase("1", "app.premium", at: F.start, revokedAt: revoked ? F.day(1) : nil,
                   signed: signed.map(F.day))
    }

    @Test("a copy signed later wins, revoked or not; an earlier one never replaces it")
    func laterSignedDateWins() {
        let purchase = Self.copy(signed: 0, revoked: false)
        let refund = Self.copy(signed: 1, revoked: true)
        let reversal = Self.copy(signed: 2, revoked: false)
        #expect(refund.supersedes(purchase))
        #expect(!purchase.supersedes(refund), "a replayed purchase must not undo its refund")
        #expect(reversal.supersedes(refund), "a refund reversal restores the purchase")
        #expect(!refund.supersedes(reversal))
        #expect(StoreTransaction.newest(stored: refund, incoming: purchase) == refund)
        #expect(StoreTransaction.newest(stored: nil, incoming: purchase) == purchase)
    }

    @Test("on equal signedDate the revoked copy wins; on a full tie the incoming copy")
    func ties() {
        let purchase = Self.copy(signed: 1, revoked: false)
        let refund = Self.copy(signed: 1, revoked: true)
        #expect(refund.supersedes(purchase))
        #expect(!purchase.supersedes(refund))
        #expect(purchase.supersedes(purchase))
    }

    @Test("a copy without signedDate (a receipt's record) is older than any signed copy")
    func unsignedIsOldest() {
        let unsigned = Self.copy(signed: nil, revoked: false)
        let signed = Self.copy(signed: 0, revoked: true)
        #expect(signed.supersedes(unsigned))
        #expect(!unsigned.supersedes(signed))
        #expect(Self.copy(signed: nil, revoked: true).supersedes(unsigned))
        #expect(!unsigned.supersedes(Self.copy(signed: nil, revoked: true)))
    }

    @Test("the rules count the newest copy of an id, whatever the order of the history")
    func historyCountsTheNewestCopy() {
        let purchase = Self.copy(signed: 0, revoked: false)
        let refund = Self.copy(signed: 1, revoked: true)
        let reversal = Self.copy(signed: 2, revoked: false)
        for order in [[purchase, refund, reversal], [reversal, refund, purchase], [refund, reversal, purchase]] {
            #expect(F.state(order, at: F.day(3)).nonConsumables == ["app.premium"], "\(order.map(\.signedDate))")
        }
        for order in [[purchase, refund], [refund, purchase]] {
            #expect(F.state(order, at: F.day(3)).nonConsumables.isEmpty)
        }
    }

    @Test("UTF8Key: canonically equivalent strings are different keys")
    func utf8Keys() {
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}", kelvin = "\u{212A}ATE"
        #expect(nfc == nfd && "KATE" == kelvin, "Swift calls them equal")
        var map: [UTF8Key: Int] = [:]
        for (position, key) in [nfc, nfd, "KATE", kelvin, nfc].enumerated() { map[UTF8Key(key), default: 0] += position }
        #expect(map.count == 4)
        #expect(map[UTF8Key(nfc)] == 0 + 4)
        #expect(map[UTF8Key(nfd)] == 1)
        #expect(!nfc.hasSameBytes(as: nfd) && nfc.hasSameBytes(as: "caf\u{E9}"))
    }

    @Test("spend ids and currencies compare as bytes: a look-alike id is another spend")
    func spendIdsAreBytes() throws {
        var history = PurchaseHistory(transactions: [F.purchase("c1", "app.coins.100", at: F.start)])
        let first = Spend(id: "caf\u{E9}", currency: "coins", amount: 10, date: F.day(1))
        let second = Spend(id: "cafe\u{301}", currency: "coins", amount: 10, date: F.day(1))
        #expect(try history.record(first, catalog: F.catalog, configuration: F.configuration))
        #expect(try history.record(second, catalog: F.catalog, configuration: F.configuration))
        #expect(throws: TallyError.self) {
            try history.record(Spend(id: "x", currency: "c\u{43E}ins", amount: 1, date: F.day(1)),
                               catalog: F.catalog, configuration: F.configuration)
        }
        let ledger = Ledger(history: history, catalog: F.catalog, configuration: F.configuration)
        #expect(ledger.net(of: "coins") == 80)
    }
}

/// Transaction ids are bytes: two ids equal only under Unicode normalisation are two transactions.
@Suite struct TransactionIdBytesTests {
    private typealias F = RulesFixtures

    @Test func lookAlikeIdsAreTwoPurchasesEachCredited() {
        let composed = F.purchase("caf\u{E9}", "app.coins.10", at: F.start)
        let decomposed = F.purchase("cafe\u{301}", "app.coins.10", at: F.start)
        #expect(composed.transactionId == decomposed.transactionId, "Swift's == calls them one")
        let state = F.state([composed, decomposed], at: F.day(1))
        #expect(state.balance("coins") == 20, "both are credited")
    }
}
