import Foundation
import TallySQLite
import TallyStorage

extension SQLiteCustomerStore {
    /// Stores and applies a verified notification in one durable write of the group commit (see
    /// ``CustomerStore/recordNotification(_:at:)``); returns after the COMMIT.
    public func recordNotification(_ notification: StoredNotification, at date: Date) throws(CustomerStoreError)
        -> NotificationOutcome
    {
        let item = try PreparedNotification(notification)
        let credits = self.credits
        return try write { (connection) throws(SQLiteError) -> NotificationOutcome in
            var recorder = NotificationRecorder(rows: SQLiteTransactionRows(connection: connection), credits: credits, date: date)
            return try recorder.record(item)
        }
    }

    /// When the oldest pending notification was received, read from one snapshot; nil when none waits.
    public func oldestPendingNotificationDate() throws(CustomerStoreError) -> Date? {
        do {
            return try readers.withConnection { (connection) throws(SQLiteError) -> Date? in
                try connection.integer("SELECT min(received_at) FROM notifications WHERE result = 'pending'")
                    .map { Date(millisecondsSince1970: $0) }
            }
        } catch {
            throw error.storeError()
        }
    }
}
