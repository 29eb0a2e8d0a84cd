import Foundation


extension Store {
    /// Appends `entries` (after any remembered ones) to the customer file, returning only once they are on
    /// disk, and applies them to the record. Compacts the journal once it holds more lines than both the
    /// file's threshold and the number of transactions, so compaction costs O(1) per write over time.
    func write(_ entries: [JournalEntry]) throws(StoreError) {
        guard !entries.isEmpty else { return }
        do {
            try file.append(unsynced + entries, durable: true)
        } catch {
            // A failed append may leave part of a line; a fresh snapshot and journal drop it.
            try? file.compact(record)
            unsynced = []
            throw error
        }
        unsynced = []
        for entry in entries { record.apply(entry) }
        if file.journalLines >= max(file.compactionThreshold, record.transactions.count) {
            compact()
        }
    }

    /// Applies an entry whose loss in a crash is harmless (a finished mark: the backend does not deliver a
    /// finished transaction again) and writes it with the next durable write, saving an fsync.
    func remember(_ entry: JournalEntry) {
        record.apply(entry)
        unsynced.append(entry)
    }

    /// Folds the journal into a new snapshot, reporting a failure.
    func compact() {
        do {
            try file.compact(record)
            unsynced = []
        } catch {
            report(StoreDiagnostic(.deliveryFailed, "compacting the customer file failed: \(error.message)"))
        }
    }
}
