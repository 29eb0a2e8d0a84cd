import Foundation
import Synchronization
import TallyCore
@testable import TallyServer

/// A small in-memory ``CustomerStore`` with the documented semantics (ownership by chain and
/// appAccountToken, transfer/keep, versions, atomic admitted spends), plus a switch that makes every
/// call fail, to test 503 and the cache.
final class MemoryCustomerStore: CustomerStore {
    private struct Storage {
        var customers: [String: CustomerRecord] = [:]
        var chainOwners: [String: String] = [:]
        var tokenOwners: [String: String] = [:]
        var failing = false
        var reads = 0
    }

    private let storage = Mutex(Storage())

    /// Makes every following call throw `busy` (or work again).
    func setFailing(_ failing: Bool) {
        storage.withLock { $0.failing = failing }
    }

    /// How many times ``customer(_:)`` was called.
    var reads: Int { storage.withLock { $0.reads } }

    func record(_ transactions: [StoredTransaction], for appUserId: String, policy: OwnershipPolicy,
                at date: Date) throws(CustomerStoreError) -> RecordOutcome {
        try storage.withLock { (storage: inout Storage) throws(CustomerStoreError) -> RecordOutcome in
            guard !storage.failing else { throw CustomerStoreError(.busy, "the test store is failing") }
            var outcome = RecordOutcome()
            var record = storage.customers[appUserId] ?? CustomerRecord(appUserId: appUserId)
            for stored in transactions {
                let transaction = stored.transaction
                let chain = transaction.originalTransactionId
                let owner = storage.chainOwners[chain] ?? transaction.appAccountToken.flatMap { storage.tokenOwners[$0] }
                if let owner, owner != appUserId {
                    if policy == .keep {
                        outcome.kept.append(transaction.transactionId)
                        continue
                    }
                    let move = OwnershipTransfer(originalTransactionId: chain, fromAppUserId: owner,
                                                 toAppUserId: appUserId, date: date)
                    var previous = storage.customers[owner] ?? CustomerRecord(appUserId: owner)
                    let moving = previous.transactions.filter { $0.transaction.originalTransactionId == chain }
                    previous.transactions.removeAll { $0.transaction.originalTransactionId == chain }
                    previous.transfers.append(move)
                    previous.version += 1
                    storage.customers[owner] = previous
                    record.transactions += moving
                    record.transfers.append(move)
                    outcome.transfers.append(move)
                }
                storage.chainOwners[chain] = appUserId
                if let token = transaction.appAccountToken { storage.tokenOwners[token] = appUserId }
                if let index = record.transactions.firstIndex(where: {
                    $0.transaction.transactionId == transaction.transactionId
                }) {
                    if record.transactions[index].transaction == transaction {
                        outcome.unchanged.append(transaction.transactionId)
                    } else {
                        record.transactions[index] = stored
                        outcome.updated.append(transaction.transactionId)
                    }
                } else {
                    record.transactions.append(stored)
                    outcome.inserted.append(transaction.transactionId)
                }
            }
            if outcome.changedAnything { record.version += 1 }
            storage.customers[appUserId] = record
            return outcome
        }
    }

    func customer(_ appUserId: String) throws(CustomerStoreError) -> CustomerRecord {
        try storage.withLock { (storage: inout Storage) throws(CustomerStoreError) -> CustomerRecord in
            guard !storage.failing else { throw CustomerStoreError(.busy, "the test store is failing") }
            storage.reads += 1
            return storage.customers[appUserId] ?? CustomerRecord(appUserId: appUserId)
        }
    }

    func spend(_ spend: Spend, for appUserId: String,
               admit: (CustomerRecord) throws -> Bool) throws(CustomerStoreError) -> SpendOutcome {
        try storage.withLock { (storage: inout Storage) throws(CustomerStoreError) -> SpendOutcome in
            guard !storage.failing else { throw CustomerStoreError(.busy, "the test store is failing") }
            var record = storage.customers[appUserId] ?? CustomerRecord(appUserId: appUserId)
            let admitted: Bool
            do {
                admitted = try admit(record)
            } catch {
                throw CustomerStoreError(.refused, "\(error)", underlying: error)
            }
            guard admitted else { return .duplicate(record) }
            record.spends.append(spend)
            record.version += 1
            storage.customers[appUserId] = record
            return .recorded(record)
        }
    }
}
