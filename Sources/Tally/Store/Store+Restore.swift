import Foundation
import TallyCore


extension Store {
    /// Restores purchases from the store (StoreKit's `AppStore.sync()`) and writes them to the customer file:
    /// non-consumables and subscriptions come back, consumables do not. Nothing to restore returns `[]`.
    /// - Throws: ``StoreError`` (`networkError`, `backend`, `storage`).
    @discardableResult
    public func restore() async throws(StoreError) -> [Transaction] {
        let updates: [TransactionUpdate]
        do {
            updates = try await backend.restore()
        } catch {
            throw failed(nil, StoreError.from(error, doing: "restore"))
        }
        var entries: [JournalEntry] = []
        var events: [StoreEvent] = []
        var merged: [String: Transaction] = [:]
        for update in updates {
            let transaction = update.transaction
            let known = merged[transaction.transactionId] ?? record.transactions[transaction.transactionId]
            let stored = Transaction.newest(stored: known, incoming: transaction)
            if stored != known {
                entries.append(.transaction(stored))
                merged[stored.transactionId] = stored
                if stored.isRevoked, known?.isRevoked != true, known != nil { events.append(.revoked(stored)) }
            }
            if let info = update.renewalInfo, record.renewalInfos[info.originalTransactionId] != info {
                entries.append(.renewalInfo(info))
            }
        }
        if record.needsRestore { entries.append(.restored(needsRestore: false)) }
        prepareForChange()
        do { try write(entries) } catch { throw failed(nil, error) }
        // Restored transactions need no finish; mark them delivered so a later identical copy is not announced.
        for update in updates where !record.finished.contains(update.transaction.transactionId) {
            remember(.finished(update.transaction.transactionId))
        }
        events.append(.restored(count: updates.count))
        emit(events + stateChangeEvents())
        return updates.map(\.transaction)
    }

    /// After a damaged customer file was moved aside: rebuilds from a restore, or reports and retries at the
    /// next launch.
    func rebuildFromStore() async {
        do {
            try await restore()
        } catch {
            report(StoreDiagnostic(.restoreFailed, "rebuilding the customer file from the store failed "
                + "(\(error.message)); retried at the next launch"))
        }
    }
}
