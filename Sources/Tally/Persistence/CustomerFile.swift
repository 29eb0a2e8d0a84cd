import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


/// The customer's file in the data directory: a snapshot (`customer.json`, replaced atomically) and an
/// append-only journal (`customer.journal`, one checksummed line per change, fsync'd per delivery).
///
/// Opening replays the journal over the snapshot and compacts both into a new snapshot; the journal is also
/// compacted once it holds ``compactionThreshold`` lines. One delivered transaction costs one appended line
/// and one `fdatasync`. A crash mid-append leaves a torn last line, which is reported and never taken as data.
final class CustomerFile {
    /// The snapshot's file name.
    static let snapshotName = "customer.json"
    /// The journal's file name.
    static let journalName = "customer.journal"
    /// The lock file's name: one store at a time per directory.
    static let lockName = "customer.lock"

    /// The data directory.
    let directory: URL
    /// Journal lines after which the journal is folded into the snapshot.
    let compactionThreshold: Int
    /// Lines appended since the last compaction.
    private(set) var journalLines = 0
    private var journalFD: Int32 = -1
    private var lockFD: Int32 = -1
    private var closed = false
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    var snapshotPath: String { directory.appendingPathComponent(Self.snapshotName).path }
    var journalPath: String { directory.appendingPathComponent(Self.journalName).path }

    /// A file in `directory`; nothing is read until ``open(now:)``.
    init(directory: URL, compactionThreshold: Int = 4096) {
        self.directory = directory
        self.compactionThreshold = compactionThreshold
    }

    deinit {
        close()
    }

    /// Closes the journal and releases the directory; later writes fail.
    func close() {
        closed = true
        if journalFD >= 0 { POSIXFile.close(journalFD) }
        if lockFD >= 0 { POSIXFile.close(lockFD) }
        journalFD = -1
        lockFD = -1
    }

    /// Reads the record (snapshot, then journal), moving damaged files aside and keeping only transactions and
    /// renewal infos whose signed form `signedForms` verifies, then compacts and opens the journal for appending. `now` names moved files.
    func open(now: Date, signedForms: SignedForms) throws(StoreError) -> (CustomerRecord, [StoreDiagnostic]) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(.storage, "cannot create the data directory \(directory.path): \(error)")
        }
        try lock()
        var (record, diagnostics) = try readSnapshot(now: now)
        // An older file is rewritten in this format (the unsigned parts it held are dropped below).
        let olderFormat = record.formatVersion < CustomerRecord.currentFormatVersion
        record.formatVersion = CustomerRecord.currentFormatVersion
        diagnostics += try dropUnverified(from: &record, now: now, signedForms: signedForms)
        let replay = try replayJournal(into: &record, now: now, signedForms: signedForms)
        diagnostics += replay.diagnostics
        // After the replay: a journal line from an earlier restore must not cancel the one these need.
        let rebuilds: Set<StoreDiagnostic.Kind> = [.corruptCustomerFile, .unverifiedTransaction]
        if replay.needsRestore || diagnostics.contains(where: { rebuilds.contains($0.kind) }) {
            record.needsRestore = true
        }
        if replay.hadLines || olderFormat || !diagnostics.isEmpty || !FileManager.default.fileExists(atPath: journalPath) {
            try compact(record)
        } else {
            try openJournal()
        }
        return (record, diagnostics)
    }

    /// Appends `entries` as journal lines; with `durable`, returns only once they are on disk.
    func append(_ entries: [JournalEntry], durable: Bool) throws(StoreError) {
        guard !entries.isEmpty else { return }
        if journalFD < 0 { try openJournal() }
        var data = Data()
        for entry in entries { data.append(try JournalLine.encode(entry, with: encoder)) }
        try POSIXFile.writeAll(journalFD, data, path: journalPath)
        if durable { try POSIXFile.sync(journalFD, path: journalPath) }
        journalLines += entries.count
    }

    /// Writes `record` as the new snapshot, then starts an empty journal. A crash between the two replays
    /// the old journal over the new snapshot, which changes nothing (entries are idempotent).
    func compact(_ record: CustomerRecord) throws(StoreError) {
        let data: Data
        do { data = try encoder.encode(record) } catch {
            throw StoreError(.storage, "cannot encode the customer record: \(error)")
        }
        try POSIXFile.writeAtomically(data, to: snapshotPath)
        if journalFD >= 0 {
            POSIXFile.close(journalFD)
            journalFD = -1
        }
        try POSIXFile.writeAtomically(Data(), to: journalPath)
        journalLines = 0
        try openJournal()
    }

    /// Takes the directory's lock, so a second store (or process) cannot write the same file at once.
    private func lock() throws(StoreError) {
        let path = directory.appendingPathComponent(Self.lockName).path
        lockFD = try POSIXFile.open(path, O_RDWR | O_CREAT)
        // A process forked by this one (any `Process` launch) shares the previous holder's open file until it
        // execs, which closes it (close-on-exec): a lock released just now can stay held that long. So a busy
        // lock is tried again for up to a second before the directory is called in use.
        var locked = flock(lockFD, LOCK_EX | LOCK_NB) == 0
        for _ in 0..<100 where !locked {
            usleep(10_000)
            locked = flock(lockFD, LOCK_EX | LOCK_NB) == 0
        }
        guard locked else {
            POSIXFile.close(lockFD)
            lockFD = -1
            throw StoreError(.storage, "\(directory.path) is in use by another Store (this process or another); "
                + "create one Store per data directory, or close the first one")
        }
    }

    private func openJournal() throws(StoreError) {
        guard !closed else {
            throw StoreError(.storage, "the store over \(directory.path) was closed; create a new Store")
        }
        journalFD = try POSIXFile.open(journalPath, O_WRONLY | O_APPEND | O_CREAT)
    }
}
