import Foundation
import TallyCore
@testable import TallyServer
import TallyStorage
import Testing

private typealias F = StoreFixtures

@Suite("Customer store (SQLite and PostgreSQL): spends")
struct StoreSpendTests {
    private func funded(_ kind: StoreKind, _ quantity: Int = 1) throws -> (StoreUnderTest, any CustomerStore) {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        _ = try store.record([F.coins("c1", quantity: quantity)], for: "u1", policy: .transfer, at: F.start)
        return (directory, store)
    }

    @Test(arguments: StoreKind.tested) func anAdmittedSpendIsRecordedWithItsExactAmount(_ kind: StoreKind) throws {
        let (directory, store) = try funded(kind)
        let amount = Decimal(string: "12.345", locale: Locale(identifier: "en_US_POSIX")) ?? 0
        let spend = F.spend("s1", amount)
        guard case .recorded(let record) = try store.spend(spend, for: "u1") else {
            Issue.record("expected recorded")
            return
        }
        #expect(record.spends.isEmpty, "the outcome carries the state record: no spends, no consumables")
        #expect(record.transactions.isEmpty)
        #expect(record.version == 2)
        #expect(record.nets == ["coins": 100 - amount])
        #expect(try store.customerState("u1") == record)
        let stored = try store.customer("u1")
        #expect(stored.spends == [spend])
        #expect(F.balance(stored) == 100 - amount)
        #expect(stored.nets == record.nets, "the kept net agrees with the ledger")
        _ = directory
    }

    @Test(arguments: StoreKind.tested) func theSameSpendAgainIsADuplicate(_ kind: StoreKind) throws {
        let (directory, store) = try funded(kind)
        let spend = F.spend("s1", 30)
        _ = try store.spend(spend, for: "u1")
        let before = try store.customer("u1")
        #expect(try store.spend(spend, for: "u1") == .duplicate(try store.customerState("u1")))
        #expect(try store.customer("u1") == before)
        _ = directory
    }

    @Test(arguments: StoreKind.tested) func aRefusedSpendCarriesTheRuleErrorAndWritesNothing(_ kind: StoreKind) throws {
        let (directory, store) = try funded(kind)
        let before = try store.customer("u1")
        let spend = F.spend("s1", 101)
        let error = try #require(throws: CustomerStoreError.self) {
            try store.spend(spend, for: "u1")
        }
        #expect(error.reason == .refused)
        #expect((error.underlying as? TallyError)?.code == .insufficientBalance)
        #expect(try store.customer("u1") == before)
        _ = directory
    }

    @Test(arguments: StoreKind.tested) func aSpendIdIsPerCustomer(_ kind: StoreKind) throws {
        let (directory, store) = try funded(kind)
        _ = try store.record([F.coins("c2")], for: "u2", policy: .transfer, at: F.start)
        for user in ["u1", "u2"] {
            let spend = F.spend("same", 10)
            guard case .recorded = try store.spend(spend, for: user) else {
                Issue.record("expected recorded for \(user)")
                return
            }
        }
        _ = directory
    }

    @Test(arguments: StoreKind.tested) func concurrentSpendsNeverOverdraw(_ kind: StoreKind) async throws {
        let (directory, store) = try funded(kind, 5)
        let threads = 25
        let perThread = 40
        let results = ResultCounter()
        let group = DispatchGroup()
        for thread in 0..<threads {
            let worker = Thread {
                for index in 0..<perThread {
                    let spend = F.spend("t\(thread)-\(index)", 1)
                    do {
                        switch try store.spend(spend, for: "u1") {
                        case .recorded: results.add(.recorded)
                        case .duplicate: results.add(.duplicate)
                        }
                    } catch let error as CustomerStoreError where error.reason == .refused {
                        results.add(.refused)
                    } catch {
                        results.add(.failed)
                    }
                }
                group.leave()
            }
            group.enter()
            worker.start()
        }
        await withCheckedContinuation { continuation in
            group.notify(queue: .global()) { continuation.resume() }
        }
        #expect(results.counts == [.recorded: 500, .refused: 500])
        let record = try store.customer("u1")
        #expect(record.spends.count == 500)
        #expect(F.balance(record) == 0)
        _ = directory
    }
}
