import Foundation
import TallySQLite
import TallyCore

extension SandboxDatabase {
    /// The notification outbox (format 4, ``SandboxMigration/notificationOutbox``): one row per notification, its whole record (attempts included) as
    /// JSON in `body`, with the columns delivery and history queries select on.
    static let outboxSchema = [
        """
        CREATE TABLE IF NOT EXISTS notifications (sequence INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE,
            account TEXT NOT NULL, type TEXT NOT NULL, signed_date_ms INTEGER NOT NULL, status TEXT NOT NULL,
            next_attempt_ms INTEGER NOT NULL, test_token TEXT NOT NULL, body TEXT NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS notifications_due ON notifications (status, next_attempt_ms)",
        "CREATE INDEX IF NOT EXISTS notifications_by_date ON notifications (signed_date_ms, sequence)",
    ]

    /// Signs and records the notification of each event of this change that has one (see
    /// ``Sandbox/notificationSubjects``), in the caller's write transaction: it is kept exactly when the event is.
    func saveNotifications(_ sandbox: Sandbox, signer: () throws -> SandboxSigner) throws {
        guard !sandbox.notificationSubjects.isEmpty else { return }
        let builder = SandboxNotificationBuilder(signer: try signer(), bundleId: sandbox.configuration.bundleId,
                                                 appAppleId: nil, environment: sandbox.environment)
        for event in sandbox.events {
            guard let subject = sandbox.notificationSubjects[event.sequence],
                  let built = try builder.notification(for: event, transaction: subject.transaction,
                                                       renewalInfo: subject.renewalInfo,
                                                       summary: sandbox.notificationSummary(for: event)) else { continue }
            try insertNotification(built, account: event.account, event: event,
                                   transactionId: subject.transaction?.transactionId, testToken: nil)
        }
    }

    /// Records one built notification, due at its `signedDate`; returns its record.
    @discardableResult
    func insertNotification(_ built: SandboxNotificationBuilder.Built, account: String, event: SandboxEvent?,
                            transactionId: String?, testToken: String?) throws(SandboxError) -> SandboxNotification {
        let sequence: Int
        do {
            sequence = Int(try integer("SELECT COALESCE(MAX(sequence), 0) + 1 FROM notifications") ?? 1)
        } catch {
            throw error.sandboxError(path: path)
        }
        let payload = built.notification
        let signedDate = payload.signedDate ?? Date(millisecondsSince1970: 0)
        let record = SandboxNotification(
            sequence: sequence, notificationUUID: payload.notificationUUID ?? "",
            notificationType: payload.notificationType?.rawValue ?? "", subtype: payload.subtype?.rawValue,
            signedDate: signedDate, account: account, originalTransactionId: event?.originalTransactionId,
            transactionId: transactionId ?? event?.transactionId, eventSequence: event?.sequence,
            testNotificationToken: testToken, signedPayload: built.signedPayload, status: .pending,
            nextAttemptDate: signedDate, sendAttempts: [])
        try write("""
            INSERT INTO notifications (sequence, uuid, account, type, signed_date_ms, status, next_attempt_ms,
                test_token, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.integer(Int64(sequence)), .text(record.notificationUUID), .text(account),
                  .text(record.notificationType), .integer(signedDate.millisecondsSince1970),
                  .text(record.status.rawValue), .integer(signedDate.millisecondsSince1970),
                  .text(testToken ?? ""), .text(try SandboxJSON.encode(record))])
        return record
    }

    /// Rewrites a notification's record after an attempt.
    func updateNotification(_ record: SandboxNotification) throws(SandboxError) {
        try write("UPDATE notifications SET status = ?, next_attempt_ms = ?, body = ? WHERE uuid = ?",
                  [.text(record.status.rawValue), .integer(record.nextAttemptDate?.millisecondsSince1970 ?? -1),
                   .text(try SandboxJSON.encode(record)), .text(record.notificationUUID)])
    }

    /// Notifications selected by a `WHERE` clause (may be empty) and its values, in the order given.
    func readNotifications(where clause: String, _ values: [SQLiteValue],
                           order: String = "signed_date_ms, sequence") throws(SandboxError) -> [SandboxNotification] {
        var records: [SandboxNotification] = []
        let sql = "SELECT body FROM notifications" + (clause.isEmpty ? "" : " WHERE " + clause) + " ORDER BY " + order
        try run(sql, values) { (row) throws(SandboxError) in
            let body: String
            do throws(SQLiteError) { body = try row.requiredText(0) } catch { throw error.sandboxError(path: path) }
            records.append(try SandboxJSON.decode(SandboxNotification.self, body, what: "a notification", path: path))
        }
        return records
    }
}

extension SandboxMigration {
    /// Format 3 → 4: the notification outbox (``SandboxDatabase/outboxSchema``).
    static let notificationOutbox = SandboxMigration(name: "notification outbox") { database in
        for statement in SandboxDatabase.outboxSchema { try database.write(statement, []) }
    }
}
