import CSQLite
import Foundation
import TallySQLite
import TallyStorage

extension SQLiteCustomerStore {
    /// `CONSUMPTION_REQUEST` notifications received at or after `date` with no row in `consumption_answers`,
    /// each with the current owner of its transaction, from one snapshot.
    public func openConsumptionRequests(receivedSince date: Date) throws(CustomerStoreError) -> [ConsumptionRequest] {
        do {
            return try readers.withConnection { (connection) throws(SQLiteError) -> [ConsumptionRequest] in
                var requests: [ConsumptionRequest] = []
                try connection.query("""
                    SELECT n.notification_uuid, json_extract(n.transaction_payload, '$.transactionId'),
                        (SELECT t.app_user_id FROM transactions t
                         WHERE t.transaction_id = json_extract(n.transaction_payload, '$.transactionId')),
                        n.received_at
                    FROM notifications n
                    WHERE n.notification_type = 'CONSUMPTION_REQUEST' AND n.received_at >= ?
                        AND n.transaction_payload IS NOT NULL
                        AND NOT EXISTS (SELECT 1 FROM consumption_answers a WHERE a.notification_uuid = n.notification_uuid)
                    ORDER BY n.received_at, n.sequence
                    """, [.integer(date.millisecondsSince1970)]) { (row) throws(SQLiteError) in
                    guard let transactionId = row.text(1) else { return }
                    requests.append(ConsumptionRequest(
                        notificationUUID: try row.requiredText(0), transactionId: transactionId, appUserId: row.text(2),
                        receivedDate: Date(millisecondsSince1970: row.int64(3))))
                }
                return requests
            }
        } catch {
            throw error.storeError()
        }
    }

    /// Inserts `answer` unless the request has one (one durable write); returns whether it was stored.
    public func recordConsumptionAnswer(_ answer: ConsumptionAnswer) throws(CustomerStoreError) -> Bool {
        try write { (connection) throws(SQLiteError) -> Bool in
            try connection.execute("""
                INSERT INTO consumption_answers (notification_uuid, transaction_id, status, body, detail, answered_at)
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (notification_uuid) DO NOTHING
                """, [.text(answer.notificationUUID), .text(answer.transactionId), .text(answer.status.rawValue),
                      .optionalText(answer.body), .optionalText(answer.detail), .integer(answer.date.millisecondsSince1970)])
            return connection.changes > 0
        }
    }

    /// The answer recorded for `notificationUUID`.
    public func consumptionAnswer(notificationUUID: String) throws(CustomerStoreError) -> ConsumptionAnswer? {
        do {
            return try readers.withConnection { (connection) throws(SQLiteError) -> ConsumptionAnswer? in
                var found: ConsumptionAnswer?
                try connection.query("""
                    SELECT transaction_id, status, body, detail, answered_at FROM consumption_answers
                    WHERE notification_uuid = ?
                    """, [.text(notificationUUID)]) { (row) throws(SQLiteError) in
                    let status = try row.requiredText(1)
                    guard let known = ConsumptionAnswer.Status(rawValue: status) else {
                        throw SQLiteError(code: SQLITE_CORRUPT, "unknown consumption answer status '\(status)'")
                    }
                    found = ConsumptionAnswer(notificationUUID: notificationUUID, transactionId: try row.requiredText(0),
                                              status: known, body: row.text(2), detail: row.text(3),
                                              date: Date(millisecondsSince1970: row.int64(4)))
                }
                return found
            }
        } catch {
            throw error.storeError()
        }
    }
}
