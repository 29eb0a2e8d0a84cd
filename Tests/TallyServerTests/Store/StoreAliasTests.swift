import Foundation
import Synchronization
import TallyCore
@testable import TallyServer
import TallyStorage
import Testing

private typealias F = StoreFixtures

@Suite("Customer store (SQLite and PostgreSQL): aliases and attributes")
struct StoreAliasTests {
    static let anonymous = "$tally:anon:" + String(repeating: "0123456789abcdef", count: 2)
    static let other = "$tally:anon:" + String(repeating: "fedcba9876543210", count: 2)

    @Test(arguments: StoreKind.tested)
    func anAliasMovesEverythingOfTheAnonymousCustomerInOneWrite(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        let anon = Self.anonymous
        let token = try store.mintAccountToken(for: anon, candidate: AccountToken.mint())
        _ = try store.record([F.premium("p1"), F.coins("c1", quantity: 2)], for: anon, policy: .keep, at: F.start)
        _ = try store.spend(F.spend("s1", 30), for: anon)
        _ = try store.spend(F.spend("shared", 5), for: anon)
        _ = try store.record([F.coins("c2")], for: "alice", policy: .keep, at: F.start)
        _ = try store.spend(F.spend("shared", 1), for: "alice")
        _ = try store.setAttributes(["email": "a@b.c", "campaign": "spring"], for: anon)
        _ = try store.setAttributes(["email": "alice@example.com"], for: "alice")
        let before = try store.customer("alice").version

        #expect(try store.alias(anon, to: "alice", at: F.start) == .aliased)
        let alice = try store.customer("alice")
        #expect(Set(alice.transactions.map(\.transaction.transactionId)) == ["p1", "c1", "c2"])
        #expect(F.balance(alice) == Decimal(264), "spends and nets moved; the clashing spend id kept its amount: \(F.balance(alice)) \(alice.spends)")
        #expect(alice.nets == ["coins": 264])
        #expect(alice.spends.count == 3)
        #expect(alice.version > before, "the identified customer's version grew: no kept state stays servable")
        let left = try store.customer(anon)
        #expect(left.transactions.isEmpty && left.spends.isEmpty && (left.nets["coins"] ?? 0) == 0)
        #expect(try store.owner(ofToken: token) == "alice", "the anonymous customer's minted token names alice")
        #expect(try store.accountToken(of: "alice") == token, "alice had none: the token moved with the purchases")
        #expect(try store.attributes(of: "alice") == ["email": "alice@example.com", "campaign": "spring"],
                "alice's own attributes win a clash")
        #expect(try store.customerId(aliasedBy: anon) == "alice")
        #expect(try store.customerId(aliasedBy: Self.other) == nil)
        #expect(try store.aliases(of: "alice").map(\.alias) == [anon])

        // A new purchase carrying the token lands with alice under keep, whoever posts it.
        let posted = try store.record([F.coins("c3", token: token)], for: "mallory", policy: .keep, at: F.start)
        #expect(posted.kept == ["c3"] && posted.ownersUpdated == ["alice"], "\(posted)")
        #expect(F.balance(try store.customer("alice")) == 364)
        _ = directory
    }

    @Test(arguments: StoreKind.tested)
    func anAliasIsForGoodAndRepeatingItMovesWhatCameSince(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        let anon = Self.anonymous
        #expect(try store.alias(anon, to: "alice", at: F.start) == .aliased, "an id never seen can be an alias")
        #expect(try store.alias(anon, to: "bob", at: F.start) == .conflict(owner: "alice"))
        #expect(try store.customerId(aliasedBy: anon) == "alice", "the conflict wrote nothing")
        #expect(try store.aliases(of: "bob").isEmpty)
        // A write for the anonymous id after the alias (one that raced it) lands with alice inside its own write.
        _ = try store.record([F.premium("p1")], for: anon, policy: .transfer, at: F.start)
        _ = try store.setAttributes(["late": "yes"], for: anon)
        #expect(try store.customer("alice").transactions.map(\.transaction.transactionId) == ["p1"])
        #expect(try store.attributes(of: "alice") == ["late": "yes"])
        #expect(try store.alias(anon, to: "alice", at: F.start) == .unchanged)
        #expect(try store.customer("alice").transactions.count == 1)
        _ = directory
    }

    @Test(arguments: StoreKind.tested)
    func attributesMergeDeleteAndStayWithinTheirBounds(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        #expect(try store.setAttributes(["email": "a@b.c", "campaign": "x"], for: "alice") == ["email": "a@b.c", "campaign": "x"])
        let changes: [String: String?] = ["campaign": nil, "name": "Al"]
        #expect(try store.setAttributes(changes, for: "alice") == ["email": "a@b.c", "name": "Al"])
        #expect(try store.attributes(of: "alice") == ["email": "a@b.c", "name": "Al"])
        var many: [String: String?] = [:]
        for index in 0..<97 { many["k\(index)"] = "v" }
        #expect(try store.setAttributes(many, for: "alice").count == 99)
        _ = try store.setAttributes(["last": "v"], for: "alice")
        do {
            _ = try store.setAttributes(["one-too-many": "v"], for: "alice")
            Issue.record("a 101st key was kept")
        } catch {
            #expect(error.reason == .refused)
            #expect((error.underlying as? CustomerAttributesProblem)?.key == "one-too-many", "\(error)")
        }
        #expect(try store.attributes(of: "alice").count == 100, "the refusal wrote nothing")
        #expect(try store.setAttributes(["last": "changed"], for: "alice").count == 100, "a change of a kept key passes")
        _ = directory
    }

    @Test(arguments: StoreKind.tested)
    func postsRacingTheAliasAllLandWithTheIdentifiedCustomer(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        let anon = Self.anonymous
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 41) { index in
            do {
                if index == 20 {
                    _ = try store.alias(anon, to: "alice", at: F.start)
                } else {
                    _ = try store.record([F.coins("race-\(index)")], for: anon, policy: .keep, at: F.start)
                }
            } catch {
                failures.withLock { $0.append("\(index): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let alice = try store.customer("alice")
        #expect(alice.transactions.count == 40, "every post, before or after the alias, is alice's")
        #expect(alice.nets == ["coins": 4_000])
        let left = try store.customer(anon)
        #expect(left.transactions.isEmpty && (left.nets["coins"] ?? 0) == 0, "nothing stranded: \(left.nets)")
        _ = directory
    }
}
