import Foundation
import TallyCore
@testable import TallyServer
import TallyStorage
import Testing

private typealias F = StoreFixtures

/// A store that keeps encoded states (PostgreSQL) serves one only while it is still right: at the customer's
/// current version, with the same fingerprint, inside its validity. SQLite keeps none.
@Suite("Customer store: kept encoded states")
struct StoreKeptStateTests {
    private static let fingerprint = "rules-a"

    private func kept(_ store: any CustomerStore, _ customer: String, from: Date, until: Date) throws -> StoredCustomerState {
        let version = try store.customerState(customer).version
        return StoredCustomerState(version: version, fingerprint: Self.fingerprint, validFrom: from, validUntil: until,
                                   body: Array(#"{"appUserId":"\#(customer)","v":\#(version)}"#.utf8))
    }

    @Test(.enabled(if: PostgresTestDatabase.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
    func aKeptStateIsServedOnlyInsideItsValidityAndWithItsFingerprint() throws {
        let database = try StoreUnderTest(.postgres)
        let store = try database.open()
        _ = try store.record([F.premium("n1")], for: "k1", policy: .transfer, at: F.start)
        let from = F.day(1), until = F.day(2)
        let state = try kept(store, "k1", from: from, until: until)
        #expect(store.keepsEncodedStates)
        #expect(try store.keepState(state, for: "k1"))
        #expect(try store.storedState(of: "k1", fingerprint: Self.fingerprint, at: from) == state)
        #expect(try store.storedState(of: "k1", fingerprint: Self.fingerprint, at: until.addingTimeInterval(-0.001)) == state)
        #expect(try store.storedState(of: "k1", fingerprint: Self.fingerprint, at: until) == nil, "it ends at validUntil")
        #expect(try store.storedState(of: "k1", fingerprint: Self.fingerprint, at: from.addingTimeInterval(-0.001)) == nil,
                "a clock behind the moment it was computed at does not get it")
        #expect(try store.storedState(of: "k1", fingerprint: "rules-b", at: from) == nil, "other rules compute it again")
        #expect(try store.storedState(of: "k2", fingerprint: Self.fingerprint, at: from) == nil, "a customer never seen")
    }

    @Test(.enabled(if: PostgresTestDatabase.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
    func everyKindOfWriteLeavesTheKeptStateUnused() throws {
        let database = try StoreUnderTest(.postgres)
        let store = try database.open()
        let at = F.day(1)
        let writes: [(String, () throws -> Void)] = [
            ("a post", { _ = try store.record([F.coins("c2")], for: "w", policy: .transfer, at: F.start) }),
            ("a refund", { _ = try store.record([F.premium("n1", revokedAt: F.day(0.5))], for: "w", policy: .transfer, at: F.start) }),
            ("a spend", { _ = try store.spend(F.spend("s1", 5), for: "w") }),
            ("a chain moved away", { _ = try store.record([F.premium("n1")], for: "other", policy: .transfer, at: F.start) }),
            ("reconciliation", { _ = try store.reconcile([F.premium("n3")], renewalInfos: [], revision: "r1", for: "w", at: F.start) }),
        ]
        _ = try store.record([F.coins("c1"), F.premium("n1")], for: "w", policy: .transfer, at: F.start)
        for (name, write) in writes {
            let state = try kept(store, "w", from: at, until: F.day(2))
            #expect(try store.keepState(state, for: "w"))
            #expect(try store.storedState(of: "w", fingerprint: Self.fingerprint, at: at) == state)
            try write()
            #expect(try store.storedState(of: "w", fingerprint: Self.fingerprint, at: at) == nil, "after \(name)")
            #expect(try store.keepState(state, for: "w") == false, "a state of the version before \(name) is not kept")
        }
    }

    @Test(.enabled(if: PostgresTestDatabase.canRun, "needs PostgreSQL: make test or scripts/with-postgres.sh"))
    func aRepeatedPostKeepsTheKeptState() throws {
        let database = try StoreUnderTest(.postgres)
        let store = try database.open()
        _ = try store.record([F.coins("c1")], for: "r", policy: .transfer, at: F.start)
        let state = try kept(store, "r", from: F.day(1), until: F.day(2))
        #expect(try store.keepState(state, for: "r"))
        _ = try store.record([F.coins("c1")], for: "r", policy: .transfer, at: F.start)
        #expect(try store.storedState(of: "r", fingerprint: Self.fingerprint, at: F.day(1)) == state,
                "nothing changed, so the state is still right")
    }

    @Test(arguments: StoreKind.tested) func theRecordASpendReturnsIsTheStateAfterItsCommit(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        _ = try store.record([F.coins("c1"), F.coins("c2"), F.premium("n1")], for: "sp", policy: .transfer, at: F.start)
        for (id, amount) in [("s1", Decimal(5)), ("s2", Decimal(string: "2.5")!), ("s1", Decimal(5))] {
            let outcome = try store.spend(F.spend(id, amount), for: "sp")
            let returned: CustomerRecord
            switch outcome {
            case .recorded(let record), .duplicate(let record): returned = record
            }
            let after = try store.customerState("sp")
            #expect(returned.version == after.version, "spend \(id)")
            #expect(returned.nets == after.nets, "spend \(id)")
            #expect(returned.transactions.count == after.transactions.count, "spend \(id)")
        }
        #expect(try store.customerState("sp").nets == ["coins": Decimal(string: "192.5")!])
    }

    @Test func sqliteKeepsNoState() throws {
        let directory = try StoreUnderTest(.sqlite)
        let store = try directory.open()
        _ = try store.record([F.coins("c1")], for: "q", policy: .transfer, at: F.start)
        let state = try kept(store, "q", from: F.day(1), until: F.day(2))
        #expect(!store.keepsEncodedStates)
        #expect(try store.keepState(state, for: "q") == false)
        #expect(try store.storedState(of: "q", fingerprint: Self.fingerprint, at: F.day(1)) == nil)
    }
}
