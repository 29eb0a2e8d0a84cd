import Foundation
import TallyCore
import TallySQLite

extension SQLiteConnection {
    /// Writes `event` to `webhook_events` and a pending delivery due at `date` for each of `endpoints`.
    func insertWebhookEvent(_ event: WebhookEvent, endpoints: [String], at date: Date) throws(SQLiteError) {
        let now = date.millisecondsSince1970
        guard let sequence = try integer("""
            INSERT INTO webhook_events (event_id, type, app_user_id, created_ms, body) VALUES (?, ?, ?, ?, ?)
            RETURNING sequence
            """, [.text(event.id), .text(event.type.rawValue), .text(event.appUserId), .integer(now),
                  .text(String(decoding: event.json, as: UTF8.self))]) else {
            throw SQLiteError(code: 1, "the webhook event \(event.id) was not stored")
        }
        for endpoint in endpoints {
            try execute("""
                INSERT INTO webhook_deliveries (sequence, endpoint, app_user_id, state, next_attempt_ms)
                VALUES (?, ?, ?, 'pending', ?)
                """, [.integer(sequence), .text(endpoint), .text(event.appUserId), .integer(now)])
        }
    }
}
