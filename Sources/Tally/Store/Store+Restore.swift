import Foundation
import TallyCore


extension Store {
    /// Restores purchases from the store (StoreKit's `AppStore.sync()`) and writes them to the customer file:
    /// non-consumables and subscriptions come back, consumables do not. Nothing to restore returns `[]`. A restored
    /// transaction whose signed form does not verify is left out and reported in ``diagnostics``.
    ///
    /// With a ``ServerLink`` each restored transaction is also posted to the server for the link's customer
    /// (what the server did with each: ``switchCustomer(to:appAccountToken:)``), and the state is read back.
    /// - Throws: ``StoreError`` (`networkError`, `backend`, `storage`).
    @discardableResult
    public func restore() async throws(StoreError) -> [StoreTransaction] {
        guard server != nil else { return try await restoreWritten().map(\.transaction) }
        // Linked: the state changes once, when the server answered for what was restored.
        prepareForChange()
        let restored = try await restoreWritten(announcingState: false)
        _ = await postRestored(restored)
        await readServerState()
        emit(stateChangeEvents())
        return restored.map(\.transaction)
    }

    /// A restore written to the customer file (its events emitted, the state's changes too when
    /// `announcingState`): each verified transaction with its signed form.
    func restoreWritten(announcingState: Bool = true) async throws(StoreError)
        -> [(transaction: StoreTransaction, jwsRepresentation: String)]
    {
        let updates: [TransactionUpdate]
        do {
            updates = try await backend.restore()
        } catch {
            throw failed(nil, StoreError.from(error, doing: "restore"))
        }
        var entries: [JournalEntry] = []
        var events: [StoreEvent] = []
        var merged: [String: StoreTransaction] = [:]
        var restored: [(transaction: StoreTransaction, jwsRepresentation: String)] = []
        for update in updates {
            let transaction: StoreTransaction
            do { transaction = try verified(update) } catch {
                report(StoreDiagnostic(.deliveryFailed, "restore: \(error.message)"))
                continue
            }
            restored.append((transaction, update.jwsRepresentation))
            let known = merged[transaction.transactionId] ?? record.transactions[transaction.transactionId]
            let stored = StoreTransaction.newest(stored: known, incoming: transaction)
            if stored != known {
                entries.append(.transaction(stored, jwsRepresentation: update.jwsRepresentation))
                merged[stored.transactionId] = stored
                if stored.isRevoked, known?.isRevoked != true, known != nil { events.append(.revoked(stored)) }
            }
            if let info = update.renewalInfo, let entry = renewalInfoEntry(
                info, chain: transaction.originalTransactionId, doing: "restore: transaction \(transaction.transactionId)") {
                entries.append(entry)
            }
        }
        if record.needsRestore { entries.append(.restored(needsRestore: false)) }
        prepareForChange()
        do { try write(entries) } catch { throw failed(nil, error) }
        // Restored transactions need no finish; mark them delivered so a later identical copy is not announced.
        for transaction in restored.map(\.transaction) where !record.finished.contains(transaction.transactionId) {
            remember(.finished(transaction.transactionId))
        }
        events.append(.restored(count: restored.count))
        emit(events + (announcingState ? stateChangeEvents() : []))
        return restored
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
