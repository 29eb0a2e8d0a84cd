import CSQLite
import Foundation
import TallyCore
import TallySQLite
@testable import TallySQLiteStore
@testable import TallyServer
@testable import TallyStorage
import Testing

private typealias F = StoreFixtures

@Suite("SQLite store: group commit")
struct StoreGroupCommitTests {
    @Test func manyThreadsWritingAtOnceAreAllCommittedAndSurviveAReopen() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.open()
        let threads = 12, perThread = 20
        let failures = ResultCounter()
        try await OnThread.run {
            OnThread.together(threads) { thread in
                for index in 0..<perThread {
                    do {
                        _ = try store.record([F.coins("t\(thread)-\(index)")], for: "u\(thread)", policy: .transfer,
                                             at: F.start)
                    } catch {
                        failures.add(.failed)
                    }
                }
            }
        }
        #expect(failures.counts.isEmpty)
        #expect(store.writes.commitCount <= threads * perThread)
        let reopened = try directory.open()
        for thread in 0..<threads {
            let record = try reopened.customer("u\(thread)")
            #expect(record.version == Int64(perThread))
            #expect(Set(record.transactions.map(\.transaction.transactionId))
                == Set((0..<perThread).map { "t\(thread)-\($0)" }))
        }
    }

    @Test func writesQueuedDuringACommitShareTheNextCommit() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.open()
        let before = store.writes.commitCount
        let writers = 10
        let results = try await OnThread.run {
            let gate = WriteGate(store: store)
            for index in 0..<writers {
                gate.start("w\(index)") {
                    _ = try store.record([F.coins("w\(index)")], for: "w\(index)", policy: .transfer, at: F.start)
                }
            }
            gate.open()
            return gate.results
        }
        #expect(results.failed.isEmpty)
        #expect(store.writes.commitCount - before == 2)  // the gate alone, then all ten together
        let reopened = try directory.open()
        #expect(try reopened.customer("gate").version == 1)
        for index in 0..<writers {
            #expect(try reopened.customer("w\(index)").transactions.map(\.transaction.transactionId) == ["w\(index)"])
        }
    }

    @Test func aBodyThatThrowsLosesOnlyItsOwnWrite() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.open()
        let before = store.writes.commitCount
        let results = try await OnThread.run {
            let gate = WriteGate(store: store)
            gate.start("a") { _ = try store.record([F.coins("a1")], for: "a", policy: .transfer, at: F.start) }
            gate.start("b") {
                _ = try store.write { (connection) throws(SQLiteError) -> Int64 in
                    try connection.bumpVersion(of: "b")
                    throw SQLiteError(code: SQLITE_CONSTRAINT, "b refuses after writing")
                }
            }
            gate.start("c") { _ = try store.record([F.coins("c1")], for: "c", policy: .transfer, at: F.start) }
            gate.open()
            return gate.results
        }
        #expect(results.succeeded == ["gate", "a", "c"])
        #expect(results.failed == ["b": .failed])
        #expect(store.writes.commitCount - before == 2)  // the gate, then a, b and c in one transaction
        let reopened = try directory.open()
        #expect(try reopened.customer("a").transactions.count == 1)
        #expect(try reopened.customer("b") == CustomerRecord(appUserId: "b"))
        #expect(try reopened.customer("c").transactions.count == 1)
    }

    @Test func whenSQLiteEndsTheTransactionTheOthersRunAgain() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.open()
        let before = store.writes.commitCount
        let results = try await OnThread.run {
            let gate = WriteGate(store: store)
            gate.start("a") { _ = try store.record([F.coins("a1")], for: "a", policy: .transfer, at: F.start) }
            gate.start("b") {  // ends the whole transaction, as SQLite does on a full disk or an I/O error
                _ = try store.write { (connection) throws(SQLiteError) -> Int64 in
                    try connection.bumpVersion(of: "b")
                    try connection.execute("ROLLBACK")
                    throw SQLiteError(code: SQLITE_FULL, "b rolled the transaction back")
                }
            }
            gate.start("c") { _ = try store.record([F.coins("c1")], for: "c", policy: .transfer, at: F.start) }
            gate.open()
            return gate.results
        }
        #expect(results.succeeded == ["gate", "a", "c"])
        #expect(results.failed == ["b": .failed])
        #expect(store.writes.commitCount - before == 2)  // the gate, then a and c again (the group was lost)
        let reopened = try directory.open()
        #expect(try reopened.customer("a").version == 1)
        #expect(try reopened.customer("b") == CustomerRecord(appUserId: "b"))
        #expect(try reopened.customer("c").version == 1)
    }

    @Test func aFailedCommitFailsEveryWriteOfItsGroupAndLeavesNothing() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.open()
        let writers = 5
        let results = try await OnThread.run {
            let gate = WriteGate(store: store) { (size) throws(SQLiteError) in
                if size > 1 { throw SQLiteError(code: SQLITE_IOERR, "injected: the group's fsync failed") }
            }
            for index in 0..<writers {
                gate.start("w\(index)") {
                    _ = try store.record([F.coins("w\(index)")], for: "w\(index)", policy: .transfer, at: F.start)
                }
            }
            gate.open()
            return gate.results
        }
        #expect(results.succeeded == ["gate"])
        let allFailed = (0..<writers).map { ("w\($0)", CustomerStoreError.Reason.failed) }
        #expect(results.failed == Dictionary(uniqueKeysWithValues: allFailed))
        let reopened = try directory.open()
        for index in 0..<writers {
            #expect(try reopened.customer("w\(index)") == CustomerRecord(appUserId: "w\(index)"))
        }
        _ = try store.record([F.coins("later")], for: "w0", policy: .transfer, at: F.start)
        #expect(try reopened.customer("w0").version == 1)
    }

    @Test func spendsInOneGroupSeeTheSpendsBeforeThem() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.open()
        _ = try store.record([F.coins("c1")], for: "u1", policy: .transfer, at: F.start)
        let before = store.writes.commitCount
        let results = try await OnThread.run {
            let gate = WriteGate(store: store)
            for index in 0..<3 {
                gate.start("s\(index)") { _ = try store.spend(F.spend("s\(index)", 40), for: "u1") }
            }
            gate.open()
            return gate.results
        }
        #expect(results.succeeded == ["gate", "s0", "s1"])
        #expect(results.failed == ["s2": .refused])
        #expect(store.writes.commitCount - before == 2)
        let record = try directory.open().customer("u1")
        #expect(record.spends.map(\.id) == ["s0", "s1"])
        #expect(F.balance(record) == 20)
    }
}
