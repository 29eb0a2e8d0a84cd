import Foundation
import TallyCore
import TallyStorage

extension PostgresCustomerStore {
    /// Stores and applies a verified notification in one transaction (see
    /// ``TallyServer/CustomerStore/recordNotification(_:at:)``); unique on `notification_uuid`.
    public func recordNotification(_ notification: StoredNotification, at date: Date) throws(CustomerStoreError)
        -> NotificationOutcome
    {
        let item = try PreparedNotification(notification)
        let credits = self.credits
        return try write("the notification cannot be stored") { (connection) throws(PostgresError) -> NotificationOutcome in
            var recorder = NotificationRecorder(rows: PostgresTransactionRows(connection: connection), credits: credits, date: date)
            return try recorder.record(item)
        }
    }

    /// When the oldest pending notification was received; nil when none waits.
    public func oldestPendingNotificationDate() throws(CustomerStoreError) -> Date? {
        try read("the pending notifications cannot be read") { (connection) throws(PostgresError) -> Date? in
            try connection.query("SELECT min(received_at) FROM notifications WHERE result = 'pending'")
                .integer(0, 0).map { Date(millisecondsSince1970: $0) }
        }
    }

    /// The back-fill cursor in `store_settings`.
    public func backfillCursor() throws(CustomerStoreError) -> BackfillCursor? {
        let text = try read("the back-fill cursor cannot be read") { (connection) throws(PostgresError) in
            try connection.setting("backfill_cursor")
        }
        return text.flatMap(Self.cursor(text:))
    }

    /// Writes the back-fill cursor durably.
    public func saveBackfillCursor(_ cursor: BackfillCursor) throws(CustomerStoreError) {
        let text = "\(cursor.start.millisecondsSince1970)" + (cursor.paginationToken.map { " " + $0 } ?? "")
        try write("the back-fill cursor cannot be stored") { (connection) throws(PostgresError) in
            try connection.setSetting("backfill_cursor", text)
        }
    }

    /// `ms` or `ms token`, as the SQLite store keeps it.
    private static func cursor(text: String) -> BackfillCursor? {
        let parts = text.split(separator: " ", maxSplits: 1)
        guard let first = parts.first, let milliseconds = Int64(first) else { return nil }
        return BackfillCursor(start: Date(millisecondsSince1970: milliseconds),
                              paginationToken: parts.count > 1 ? String(parts[1]) : nil)
    }
}
