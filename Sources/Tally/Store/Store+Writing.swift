import Foundation


extension Store {
    /// Appends `entries` to the customer file and applies them to the record; with `durable`, returns only
    /// once they are on disk. Compacts the journal when it grows long.
    func write(_ entries: [JournalEntry], durable: Bool = true) throws(StoreError) {
        guard !entries.isEmpty else { return }
        do {
            try file.append(entries, durable: durable)
        } catch {
            // A failed append may leave part of a line; a fresh snapshot and journal drop it.
            try? file.compact(record)
            throw error
        }
        for entry in entries { record.apply(entry) }
        if file.journalLines >= file.compactionThreshold {
            do {
                try file.compact(record)
            } catch {
                report(StoreDiagnostic(.deliveryFailed, "compacting the customer file failed: \(error.message)"))
            }
        }
    }
}
