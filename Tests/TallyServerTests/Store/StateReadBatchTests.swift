import Foundation
import Synchronization
import TallyCore
@testable import TallyPostgres
@testable import TallyServer
import TallyStorage
import Testing

/// Kept-state reads that arrive together share one read, and each caller still gets exactly its own answer.
@Suite("PostgreSQL: kept-state reads in batches")
struct StateReadBatchTests {
    private static let now = Date(millisecondsSince1970: 1_796_000_000_000)

    private static func state(_ customer: String, fingerprint: String = "f") -> StoredCustomerState {
        StoredCustomerState(version: 1, fingerprint: fingerprint, validFrom: now.addingTimeInterval(-60),
                            validUntil: now.addingTimeInterval(60), body: Array(customer.utf8))
    }

    @Test func concurrentReadsShareBatchesAndEachGetsItsOwnAnswer() async throws {
        let batch = StateReadBatch()
        let sizes = Mutex<[Int]>([])
        let wrong = Mutex<[String]>([])
        // 64 callers at once, many for the same customers, ids that differ only in Unicode normalisation among them.
        let customers = (0..<64).map { index in index % 3 == 0 ? "caf\u{E9}-\(index % 8)" : "cafe\u{301}-\(index % 8)" }
        try await OnThread.run {
            OnThread.together(customers.count) { index in
                let customer = customers[index]
                do {
                    let answer = try batch.state(of: customer, fingerprint: "f", at: Self.now) { (ids) throws(CustomerStoreError) in
                        sizes.withLock { $0.append(ids.count) }
                        usleep(2_000)  // a statement's round trip, so that others arrive meanwhile
                        var found: [UTF8Key: StoredCustomerState] = [:]
                        for id in ids { found[UTF8Key(id)] = Self.state(id) }
                        return found
                    }
                    if answer?.body != Array(customer.utf8) { wrong.withLock { $0.append(customer) } }
                } catch {
                    wrong.withLock { $0.append("\(customer): \(error)") }
                }
            }
        }
        #expect(wrong.withLock { $0 }.isEmpty, "each caller gets the state of its own id, compared as bytes")
        let all = sizes.withLock { $0 }
        #expect(all.reduce(0, +) == customers.count, "every read is in exactly one batch")
        #expect(all.allSatisfy { $0 <= StateReadBatch.maximumBatch })
        #expect(all.count < customers.count / 2, "reads arriving together share statements: \(all)")
    }

    @Test func aFailedBatchFailsEveryReadInItAndTheNextBatchWorks() async throws {
        let batch = StateReadBatch()
        let failing = Mutex(true)
        let results = Mutex<[Bool]>([])
        try await OnThread.run {
            OnThread.together(12) { index in
                let ok: Bool
                do {
                    _ = try batch.state(of: "c\(index)", fingerprint: "f", at: Self.now) { (ids) throws(CustomerStoreError) in
                        usleep(2_000)
                        if failing.withLock({ $0 }) { throw CustomerStoreError(.unavailable, "the database is down") }
                        return [:]
                    }
                    ok = true
                } catch {
                    ok = false
                }
                results.withLock { $0.append(ok) }
            }
        }
        #expect(results.withLock { $0 }.contains(false))
        failing.withLock { $0 = false }
        #expect(try batch.state(of: "c1", fingerprint: "f", at: Self.now) { (_) throws(CustomerStoreError) in [:] } == nil,
                "the reader is not left stuck after a failure")
    }

    @Test func aStateOfOtherRulesOrOutsideItsWindowIsNotServed() throws {
        let batch = StateReadBatch()
        let kept = Self.state("c", fingerprint: "other")
        #expect(try batch.state(of: "c", fingerprint: "f", at: Self.now) { (_) throws(CustomerStoreError) in
            [UTF8Key("c"): kept] } == nil)
        let right = Self.state("c")
        #expect(try batch.state(of: "c", fingerprint: "f", at: Self.now) { (_) throws(CustomerStoreError) in
            [UTF8Key("c"): right] } == right)
        #expect(try batch.state(of: "c", fingerprint: "f", at: right.validUntil) { (_) throws(CustomerStoreError) in
            [UTF8Key("c"): right] } == nil)
        #expect(try batch.state(of: "c", fingerprint: "f", at: right.validFrom.addingTimeInterval(-0.002)) {
            (_) throws(CustomerStoreError) in [UTF8Key("c"): right] } == nil)
    }
}
