import Foundation


extension CustomerFile {
    /// The one field read before the rest.
    private struct FormatVersion: Decodable {
        var formatVersion: Int
    }

    /// What replaying the journal found.
    struct Replay {
        var hadLines = false
        var needsRestore = false
        var diagnostics: [StoreDiagnostic] = []
    }

    /// The snapshot's record; a snapshot that does not decode is moved aside and reported, and the record
    /// starts empty, marked for a rebuild from the store.
    func readSnapshot(now: Date) throws(StoreError) -> (CustomerRecord, [StoreDiagnostic]) {
        guard let data = FileManager.default.contents(atPath: snapshotPath) else { return (CustomerRecord(), []) }
        // The version first: a newer file may have another shape, and must be refused, not moved aside.
        if let version = try? JSONDecoder().decode(FormatVersion.self, from: data).formatVersion,
           version > CustomerRecord.currentFormatVersion {
            throw StoreError(.storage, "\(snapshotPath) has format version \(version), written by a newer Tally; "
                + "update the app instead of downgrading it")
        }
        let record: CustomerRecord
        do {
            record = try JSONDecoder().decode(CustomerRecord.self, from: data)
        } catch {
            let moved = try moveAside(snapshotPath, now: now)
            var fresh = CustomerRecord()
            fresh.needsRestore = true
            return (fresh, [StoreDiagnostic(.corruptCustomerFile, "\(snapshotPath) is damaged (\(error)); moved to "
                + "\(moved.lastPathComponent) and rebuilt from the journal and a restore", movedTo: moved)])
        }
        return (record, [])
    }

    /// Applies every intact journal line to `record`. A damaged last line is a write cut short by a crash:
    /// ignored and reported. A damaged line before it means the file is corrupt: the journal is copied
    /// aside, the line skipped and a restore requested.
    ///
    /// A transaction line counts only when `signedForms` verifies its signed form as signing exactly that
    /// transaction; any other is ignored and reported, the journal copied aside and a restore requested. A renewal
    /// info line likewise counts only when its signed form signs exactly that renewal info; any other is ignored
    /// and reported, and the journal copied aside (no restore: the next subscription status brings signed ones).
    func replayJournal(into record: inout CustomerRecord, now: Date,
                       signedForms: SignedForms) throws(StoreError) -> Replay {
        var replay = Replay()
        guard let data = FileManager.default.contents(atPath: journalPath), !data.isEmpty else { return replay }
        replay.hadLines = true
        let decoder = JSONDecoder()
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        let lastContent = lines.lastIndex { !$0.isEmpty } ?? 0
        var damaged: [Int] = []
        var unverified: [String] = []
        var unverifiedRenewals: [String] = []
        for (number, line) in lines.enumerated() where !line.isEmpty {
            let complete = number < lines.count - 1
            if complete, let entry = JournalLine.decode(line, with: decoder) {
                if case .transaction(let transaction, let jws) = entry,
                   let reason = signedForms.rejection(of: transaction, jwsRepresentation: jws) {
                    unverified.append("line \(number + 1) (transaction \(transaction.transactionId), "
                        + "\(transaction.productId)) \(reason)")
                } else if case .renewalInfo(let info, let jws) = entry,
                          let reason = signedForms.rejection(of: info, jwsRepresentation: jws) {
                    unverifiedRenewals.append("line \(number + 1) (\(Self.describe(info))) \(reason)")
                } else {
                    record.apply(entry)
                }
            } else if number == lastContent {
                replay.diagnostics.append(StoreDiagnostic(.tornJournalTail, "\(journalPath): the last line "
                    + "(\(line.count) bytes) is incomplete, from a write cut short; ignored"))
            } else {
                damaged.append(number + 1)
            }
        }
        if !damaged.isEmpty {
            let copy = try moveAside(journalPath, now: now, copy: true)
            replay.needsRestore = true
            replay.diagnostics.append(StoreDiagnostic(.corruptJournalLine, "\(journalPath): lines "
                + "\(damaged.map(String.init).joined(separator: ", ")) fail their checksum; skipped, the journal "
                + "was copied to \(copy.lastPathComponent) and the state is rebuilt with a restore", movedTo: copy))
        }
        if !unverified.isEmpty || !unverifiedRenewals.isEmpty {
            let copy = try moveAside(journalPath, now: now, copy: true, label: "unverified")
            if !unverified.isEmpty {
                replay.needsRestore = true
                replay.diagnostics.append(Self.unverifiedDiagnostic(journalPath, unverified, copy: copy))
            }
            if !unverifiedRenewals.isEmpty {
                replay.diagnostics.append(Self.unverifiedRenewalDiagnostic(journalPath, unverifiedRenewals, copy: copy))
            }
        }
        return replay
    }

    /// Drops from the snapshot's record every transaction and renewal info whose signed form does not verify as
    /// signing it; reports them and copies the snapshot aside; a dropped transaction also requests a restore.
    func dropUnverified(from record: inout CustomerRecord, now: Date,
                        signedForms: SignedForms) throws(StoreError) -> [StoreDiagnostic] {
        var rejected: Set<String> = []
        var details: [String] = []
        for transaction in record.transactions.all {
            let jws = record.transactions.jwsRepresentation(of: transaction.transactionId)
            guard let reason = signedForms.rejection(of: transaction, jwsRepresentation: jws) else { continue }
            rejected.insert(transaction.transactionId)
            details.append("transaction \(transaction.transactionId) (\(transaction.productId)) \(reason)")
        }
        var renewalDetails: [String] = []
        for (chain, stored) in record.renewalInfos.sorted(by: { $0.key < $1.key }) {
            guard let reason = signedForms.rejection(of: stored.renewalInfo, jwsRepresentation: stored.jwsRepresentation)
            else { continue }
            record.renewalInfos.removeValue(forKey: chain)
            renewalDetails.append("\(Self.describe(stored.renewalInfo)) \(reason)")
        }
        guard !rejected.isEmpty || !renewalDetails.isEmpty else { return [] }
        let copy = try moveAside(snapshotPath, now: now, copy: true, label: "unverified")
        var diagnostics: [StoreDiagnostic] = []
        if !rejected.isEmpty {
            record.transactions = record.transactions.removing(rejected)
            record.needsRestore = true
            diagnostics.append(Self.unverifiedDiagnostic(snapshotPath, details, copy: copy))
        }
        if !renewalDetails.isEmpty {
            diagnostics.append(Self.unverifiedRenewalDiagnostic(snapshotPath, renewalDetails, copy: copy))
        }
        return diagnostics
    }

    /// A renewal info as a diagnostic names it.
    static func describe(_ info: RenewalInfo) -> String {
        "renewal info of chain \(info.originalTransactionId), \(info.productId)"
    }

    /// The first five details, then "and N more".
    private static func summary(_ details: [String]) -> String {
        details.prefix(5).joined(separator: "; ") + (details.count > 5 ? "; and \(details.count - 5) more" : "")
    }

    /// One diagnostic for the ignored renewal infos of one file, naming the first few. No restore: the next
    /// subscription status from the store (``Store/refreshSubscriptionStatus()``) brings signed ones.
    static func unverifiedRenewalDiagnostic(_ path: String, _ details: [String], copy: URL) -> StoreDiagnostic {
        StoreDiagnostic(.unverifiedRenewalInfo, "\(path): \(summary(details)): ignored, they grant nothing (the "
            + "store's next subscription status brings signed ones); the file was copied to \(copy.lastPathComponent)",
            movedTo: copy)
    }

    /// One diagnostic for the ignored transactions of one file, naming the first few.
    static func unverifiedDiagnostic(_ path: String, _ details: [String], copy: URL) -> StoreDiagnostic {
        StoreDiagnostic(.unverifiedTransaction, "\(path): \(summary(details)): ignored, they grant nothing; "
            + "the file was copied to \(copy.lastPathComponent) and the state is rebuilt with a restore", movedTo: copy)
    }

    /// Renames (or copies) `path` to `<path>.<label>-<UTC timestamp>`, never over an existing file.
    func moveAside(_ path: String, now: Date, copy: Bool = false,
                   label: String = "corrupt") throws(StoreError) -> URL {
        let stamp = now.formatted(.iso8601.year().month().day().dateSeparator(.omitted).time(includingFractionalSeconds: false)
            .timeSeparator(.omitted).timeZone(separator: .omitted))
        var target = URL(fileURLWithPath: "\(path).\(label)-\(stamp)")
        var attempt = 2
        while FileManager.default.fileExists(atPath: target.path) {
            target = URL(fileURLWithPath: "\(path).\(label)-\(stamp)-\(attempt)")
            attempt += 1
        }
        do {
            if copy {
                try FileManager.default.copyItem(atPath: path, toPath: target.path)
            } else {
                try FileManager.default.moveItem(atPath: path, toPath: target.path)
            }
        } catch {
            throw StoreError(.storage, "cannot move the damaged \(path) aside to \(target.path): \(error)")
        }
        return target
    }
}
