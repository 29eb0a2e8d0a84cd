import Foundation
import TallyCore
@testable import TallySQLiteStore
@testable import TallyServer
@testable import TallyStorage
import Testing

private typealias F = StoreFixtures

/// ``CustomerRecord/factsVersion``: the version at which everything a state reads besides the nets last changed.
/// Every write that can change the facts moves it; only writes that move nets alone (coin purchases and refunds, spends)
/// leave it — and a post for a caller holding a state at the current facts version reads back only the nets.
@Suite("Customer store (SQLite and PostgreSQL): the facts version")
struct StoreFactsVersionTests {
    private func facts(_ store: any CustomerStore, _ customer: String) throws -> (version: Int64, facts: Int64) {
        let record = try store.customerState(customer)
        return (record.version, record.factsVersion)
    }

    private func renewal(_ chain: String, signed: Date) -> StoredRenewalInfo {
        StoredRenewalInfo(renewalInfo: RenewalInfo(originalTransactionId: chain, productId: "app.pro.month",
                                                   autoRenewStatus: .off, signedDate: signed), signedRenewalInfo: nil)
    }

    @Test(arguments: StoreKind.tested) func onlyWritesOfNetsAloneLeaveTheFactsVersion(_ kind: StoreKind) throws {
        let database = try StoreUnderTest(kind)
        let store = try database.open()
        let user = "f"
        #expect(try facts(store, user) == (version: 0, facts: 0))
        let writes: [(name: String, movesFacts: Bool, write: () throws -> Void)] = [
            ("a first coin purchase", false, { _ = try store.record([F.coins("c1")], for: user, policy: .transfer, at: F.start) }),
            ("a spend", false, { _ = try store.spend(F.spend("s1", 5), for: user) }),
            ("a coin refund", false, { _ = try store.record([F.signed(StoreTransaction(
                transactionId: "c1", productId: "app.coins.100", purchaseDate: F.start, type: .consumable,
                signedDate: F.day(1), revocationReason: .other, revocationDate: F.day(1)))], for: user, policy: .transfer, at: F.start) }),
            ("a non-consumable", true, { _ = try store.record([F.premium("n1")], for: user, policy: .transfer, at: F.start) }),
            ("a coin purchase with a subscription period", true, {
                _ = try store.record([F.coins("c2"), F.period("p1", original: "p1", month: 0)], for: user, policy: .transfer, at: F.start) }),
            ("reconciliation's renewal info", true, {
                _ = try store.reconcile([], renewalInfos: [renewal("p1", signed: F.day(1))], revision: "r1", for: user, at: F.day(1)) }),
            ("a notification's renewal info", true, { _ = try store.recordNotification(StoredNotification(
                notificationUUID: "n-1", notificationType: "DID_CHANGE_RENEWAL_STATUS", signedDate: F.day(2),
                signedPayload: "signed-n-1", renewalInfo: renewal("p1", signed: F.day(2)).renewalInfo,
                appliesFacts: true), at: F.day(2)) }),
            ("the same coin purchase again", false, { _ = try store.record([F.coins("c2")], for: user, policy: .transfer, at: F.start) }),
            ("a refund of the non-consumable", true, {
                _ = try store.record([F.premium("n1", revokedAt: F.day(3))], for: user, policy: .transfer, at: F.start) }),
        ]
        for (name, movesFacts, write) in writes {
            let before = try facts(store, user)
            try write()
            let after = try facts(store, user)
            if name == "the same coin purchase again" {
                #expect(after.version == before.version && after.facts == before.facts, "\(name) changes nothing")
                continue
            }
            #expect(after.version > before.version, "\(name) moves the version")
            if movesFacts {
                #expect(after.facts == after.version, "\(name) moves the facts version")
            } else {
                #expect(after.facts == before.facts, "\(name) leaves the facts version")
            }
        }
    }

    @Test(arguments: StoreKind.tested) func aChainMovedAwayMovesTheLosersFactsToo(_ kind: StoreKind) throws {
        let database = try StoreUnderTest(kind)
        let store = try database.open()
        _ = try store.record([F.coins("c1")], for: "a", policy: .transfer, at: F.start)
        _ = try store.record([F.premium("n1")], for: "a", policy: .transfer, at: F.start)
        _ = try store.spend(F.spend("s1", 5), for: "a")
        let before = try facts(store, "a")
        _ = try store.record([F.premium("n1")], for: "b", policy: .transfer, at: F.start)
        let after = try facts(store, "a"), taker = try facts(store, "b")
        #expect(after.version == before.version + 1 && after.facts == after.version, "the loser's facts moved")
        #expect(taker.facts == taker.version && taker.version > 0, "the taker's facts moved")
        // A coin purchase another customer owns, posted by "b": kept with "a", nothing moves for "a".
        _ = try store.record([F.coins("c1")], for: "b", policy: .transfer, at: F.start)
        let kept = try facts(store, "a")
        #expect(kept.version == after.version && kept.facts == after.facts)
    }

    @Test(arguments: StoreKind.tested) func aPostReadsOnlyTheNetsWhileTheFactsVersionIsTheKnownOne(_ kind: StoreKind) throws {
        let database = try StoreUnderTest(kind)
        let store = try database.open()
        let user = "k"
        _ = try store.record([F.premium("n1"), F.period("p1", original: "p1", month: 0)], for: user, policy: .transfer, at: F.start)
        let known = try store.customerState(user)
        // Coin purchases and spends in between, from anywhere: the facts version stays, so only the nets are read.
        _ = try store.record([F.coins("c1")], for: user, policy: .transfer, at: F.start)
        _ = try store.spend(F.spend("s1", 30), for: user)
        let (outcome, record, onlyNets) = try store.recordReadingState([F.coins("c2", quantity: 2)], for: user,
                                                                       policy: .transfer, at: F.start,
                                                                       knownFactsVersion: known.factsVersion)
        #expect(outcome.inserted == ["c2"] && onlyNets)
        #expect(record.transactions.isEmpty && record.renewalInfos.isEmpty, "nothing that grows with the history was read")
        #expect(record.nets == ["coins": 270] && record.factsVersion == known.factsVersion)
        #expect(record.version == known.version + 3)

        // A state held at an older facts version, or none: the whole record.
        _ = try store.record([F.period("p2", original: "p1", month: 1)], for: user, policy: .transfer, at: F.start)
        let stale = try store.recordReadingState([F.coins("c3")], for: user, policy: .transfer, at: F.start,
                                                 knownFactsVersion: known.factsVersion)
        let ids = stale.state.transactions.map(\.transaction.transactionId)
        #expect(!stale.onlyNets && ids.count == 3, "\(ids)")
        let afterStale = try store.customerState(user)
        #expect(stale.state == afterStale)
        let none = try store.recordReadingState([F.coins("c4")], for: user, policy: .transfer, at: F.start, knownFactsVersion: nil)
        let afterNone = try store.customerState(user)
        #expect(!none.onlyNets && none.state == afterNone)
    }

    /// SQLite's migration 7 on a database written before it: each facts version starts at the customer's version.
    @Test func migration7StartsEachFactsVersionAtTheVersion() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try directory.open()
            _ = try store.record([F.premium("n1")], for: "m", policy: .transfer, at: F.start)
            _ = try store.record([F.coins("c1")], for: "m", policy: .transfer, at: F.start)
        }
        do {
            let connection = try SQLiteConnection(path: directory.database)
            try SchemaUndo.sqliteSupersession(connection)
            try connection.execute("ALTER TABLE customers DROP COLUMN facts_version")
            try connection.execute("PRAGMA user_version = 6")
        }
        let record = try directory.open().customerState("m")
        #expect(record.version == 2 && record.factsVersion == 2)
    }
}
