import Foundation
import TallyStorage

extension PostgresCustomerStore {
    /// `CONSUMPTION_REQUEST` notifications received at or after `date` without an answer, each with the
    /// current owner of its transaction, in one statement (one snapshot).
    public func openConsumptionRequests(receivedSince date: Date) throws(CustomerStoreError) -> [ConsumptionRequest] {
        try read("the consumption requests cannot be read") { (connection) throws(PostgresError) -> [ConsumptionRequest] in
            let rows = try connection.query("""
                SELECT n.notification_uuid, n.transaction_payload::jsonb ->> 'transactionId',
                    (SELECT t.app_user_id FROM transactions t
                     WHERE t.transaction_id = convert_to(n.transaction_payload::jsonb ->> 'transactionId', 'UTF8')),
                    n.received_at
                FROM notifications n
                WHERE n.notification_type = 'CONSUMPTION_REQUEST' AND n.received_at >= $1
                    AND n.transaction_payload IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM consumption_answers a WHERE a.notification_uuid = n.notification_uuid)
                ORDER BY n.received_at, n.sequence
                """, [.integer(date.millisecondsSince1970)])
            var requests: [ConsumptionRequest] = []
            for row in 0..<rows.count {
                guard let uuid = try rows.bytes(row, 0), let transactionId = rows.text(row, 1),
                    let received = try rows.integer(row, 3)
                else { continue }
                requests.append(ConsumptionRequest(notificationUUID: uuid, transactionId: transactionId,
                                                   appUserId: try rows.bytes(row, 2),
                                                   receivedDate: Date(millisecondsSince1970: received)))
            }
            return requests
        }
    }

    /// Inserts `answer` unless the request has one; returns whether it was stored.
    public func recordConsumptionAnswer(_ answer: ConsumptionAnswer) throws(CustomerStoreError) -> Bool {
        try write("the consumption answer cannot be stored") { (connection) throws(PostgresError) -> Bool in
            try connection.query("""
                INSERT INTO consumption_answers (notification_uuid, transaction_id, status, body, detail, answered_at)
                VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (notification_uuid) DO NOTHING
                """, [.bytes(answer.notificationUUID), .bytes(answer.transactionId), .text(answer.status.rawValue),
                      answer.body.map { .text($0) } ?? .null, answer.detail.map { .text($0) } ?? .null,
                      .integer(answer.date.millisecondsSince1970)]).affected > 0
        }
    }

    /// The answer recorded for `notificationUUID`.
    public func consumptionAnswer(notificationUUID: String) throws(CustomerStoreError) -> ConsumptionAnswer? {
        try read("the consumption answer cannot be read") { (connection) throws(PostgresError) -> ConsumptionAnswer? in
            let rows = try connection.query("""
                SELECT transaction_id, status, body, detail, answered_at FROM consumption_answers
                WHERE notification_uuid = $1
                """, [.bytes(notificationUUID)])
            guard rows.count > 0, let transactionId = try rows.bytes(0, 0), let text = rows.text(0, 1),
                let answered = try rows.integer(0, 4)
            else { return nil }
            guard let status = ConsumptionAnswer.Status(rawValue: text) else {
                throw .corrupt("unknown consumption answer status '\(text.prefix(40))'")
            }
            return ConsumptionAnswer(notificationUUID: notificationUUID, transactionId: transactionId, status: status,
                                     body: rows.text(0, 2), detail: rows.text(0, 3),
                                     date: Date(millisecondsSince1970: answered))
        }
    }
}
