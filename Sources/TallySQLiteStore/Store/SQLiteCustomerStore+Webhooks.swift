import Foundation
import TallyCore
import TallyStorage
import TallySQLite

extension SQLiteCustomerStore: WebhookOutbox {
    /// Routes events to `routing` from now on; each commit of this store then calls `committed`.
    public func routeWebhooks(_ routing: WebhookRouting, committed: (@Sendable () -> Void)?) {
        webhookRoutes.route(routing, committed: committed)
    }

    /// The endpoints events are written for.
    public var webhookRouting: WebhookRouting { webhookRoutes.routing }

    /// False: one server per file.
    public var webhookOutboxIsShared: Bool { false }

    /// Claims on the one write connection: one writer at a time, so no claim can race another.
    public func claimWebhookDeliveries(now: Date, lease: TimeInterval, limit: Int) throws(CustomerStoreError)
        -> [WebhookDelivery]
    {
        let nowMs = now.millisecondsSince1970
        let until = now.addingTimeInterval(lease).millisecondsSince1970
        return try write(wakingSender: false) { (connection) throws(SQLiteError) -> [WebhookDelivery] in
            var claimed: [WebhookDelivery] = []
            try connection.query("""
                SELECT d.sequence, d.endpoint, e.event_id, d.app_user_id, e.body, d.attempts
                FROM webhook_deliveries d JOIN webhook_events e ON e.sequence = d.sequence
                WHERE \(WebhookOutboxSQL.isHeadOfLine) AND d.next_attempt_ms <= ? AND d.lease_until_ms <= ?
                ORDER BY d.sequence LIMIT ?
                """, [.integer(nowMs), .integer(nowMs), .integer(Int64(limit))]) { (row) throws(SQLiteError) in
                claimed.append(WebhookDelivery(
                    sequence: row.int64(0), endpoint: try row.requiredText(1), eventId: try row.requiredText(2),
                    appUserId: try row.requiredText(3), body: Array(try row.requiredText(4).utf8),
                    attempts: Int(row.int64(5)) + 1, leaseToken: UUID().uuidString))
            }
            for delivery in claimed {
                try connection.execute("""
                    UPDATE webhook_deliveries SET attempts = attempts + 1, lease_until_ms = ?, lease_token = ?
                    WHERE endpoint = ? AND sequence = ?
                    """, [.integer(until), .text(delivery.leaseToken), .text(delivery.endpoint),
                          .integer(delivery.sequence)])
            }
            return claimed
        }
    }

    /// Stores the attempt's result if the claim is still this one (its lease token); false when it was lost.
    @discardableResult
    public func settleWebhookDelivery(_ delivery: WebhookDelivery, _ result: WebhookAttemptResult, at date: Date)
        throws(CustomerStoreError) -> Bool
    {
        var next: Int64 = 0
        if case .retry(let at, _, _) = result { next = at.millisecondsSince1970 }
        let delivered: SQLiteValue = result.state == .delivered ? .integer(date.millisecondsSince1970) : .null
        return try write(wakingSender: false) { (connection) throws(SQLiteError) -> Bool in
            try connection.execute("""
                UPDATE webhook_deliveries SET state = ?, next_attempt_ms = CASE WHEN ? > 0 THEN ? ELSE next_attempt_ms END,
                    lease_until_ms = 0, lease_token = NULL, last_status = ?, last_error = ?, delivered_ms = ?
                WHERE endpoint = ? AND sequence = ? AND lease_token = ?
                """, [.text(result.state.rawValue), .integer(next), .integer(next),
                      result.status.map { .integer(Int64($0)) } ?? .null, .optionalText(result.error), delivered,
                      .text(delivery.endpoint), .integer(delivery.sequence), .text(delivery.leaseToken)])
            return connection.changes > 0
        }
    }

    /// When the next head-of-line pending delivery falls due (its next attempt, or its lease's end).
    public func nextWebhookDueDate() throws(CustomerStoreError) -> Date? {
        try read { (connection) throws(SQLiteError) -> Date? in
            try connection.integer("""
                SELECT MIN(MAX(d.next_attempt_ms, d.lease_until_ms)) FROM webhook_deliveries d
                WHERE \(WebhookOutboxSQL.isHeadOfLine)
                """).map { Date(millisecondsSince1970: $0) }
        }
    }

    /// Ends every lease: one server per SQLite file, so a lease left at start is a killed server's.
    public func releaseWebhookLeases() throws(CustomerStoreError) {
        try write(wakingSender: false) { (connection) throws(SQLiteError) in
            try connection.execute("""
                UPDATE webhook_deliveries SET lease_until_ms = 0, lease_token = NULL
                WHERE state = 'pending' AND lease_until_ms > 0
                """)
        }
    }

    /// Deliveries by `filter`, newest event first, from one snapshot.
    public func webhookDeliveries(_ filter: WebhookDeliveryFilter, limit: Int, before: Int64?)
        throws(CustomerStoreError) -> [WebhookDeliveryRecord]
    {
        try read { (connection) throws(SQLiteError) -> [WebhookDeliveryRecord] in
            var found: [WebhookDeliveryRecord] = []
            try connection.query("""
                SELECT \(WebhookOutboxSQL.listedColumns)
                FROM webhook_deliveries d JOIN webhook_events e ON e.sequence = d.sequence
                WHERE \(WebhookOutboxSQL.condition(filter)) AND d.sequence < ?
                ORDER BY d.sequence DESC, d.endpoint LIMIT ?
                """, [.integer(before ?? Int64.max), .integer(Int64(max(0, limit)))]) { (row) throws(SQLiteError) in
                let state = WebhookDeliveryState(rawValue: try row.requiredText(5)) ?? .pending
                found.append(WebhookDeliveryRecord(
                    sequence: row.int64(0), eventId: try row.requiredText(1), type: try row.requiredText(2),
                    appUserId: try row.requiredText(3), endpoint: try row.requiredText(4), state: state,
                    attempts: Int(row.int64(6)), createdAt: Date(millisecondsSince1970: row.int64(7)),
                    nextAttemptAt: state == .pending ? Date(millisecondsSince1970: row.int64(8)) : nil,
                    lastStatus: row.isNull(9) ? nil : Int(row.int64(9)), lastError: row.text(10),
                    deliveredAt: row.isNull(11) ? nil : Date(millisecondsSince1970: row.int64(11))))
            }
            return found
        }
    }

    /// Makes the event's undelivered deliveries due at `now`, attempts from zero (none under a live lease).
    public func retryWebhookEvent(_ eventId: String, at now: Date) throws(CustomerStoreError) -> Int {
        try write { (connection) throws(SQLiteError) -> Int in
            try connection.execute("""
                UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_ms = ?
                WHERE state != 'delivered' AND lease_until_ms <= ?
                AND sequence = (SELECT sequence FROM webhook_events WHERE event_id = ?)
                """, [.integer(now.millisecondsSince1970), .integer(now.millisecondsSince1970), .text(eventId)])
            return connection.changes
        }
    }

    /// Queues again every delivery of the events written since `since` (none under a live lease), same ids.
    public func replayWebhookEvents(since: Date, at now: Date) throws(CustomerStoreError) -> Int {
        try write { (connection) throws(SQLiteError) -> Int in
            try connection.execute("""
                UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_ms = ?, delivered_ms = NULL
                WHERE lease_until_ms <= ? AND sequence IN (SELECT sequence FROM webhook_events WHERE created_ms >= ?)
                """, [.integer(now.millisecondsSince1970), .integer(now.millisecondsSince1970),
                      .integer(since.millisecondsSince1970)])
            return connection.changes
        }
    }

    /// Writes `event` with a delivery for every endpoint that takes it, due now.
    public func enqueueWebhookEvent(_ event: WebhookEvent, at now: Date) throws(CustomerStoreError) -> Int {
        let endpoints = webhookRouting.endpoints(for: event.type)
        guard !endpoints.isEmpty else { return 0 }
        try write { (connection) throws(SQLiteError) in
            try connection.insertWebhookEvent(event, endpoints: endpoints, at: now)
        }
        return endpoints.count
    }

    /// The outbox's counts and its oldest pending delivery's age, in one statement.
    public func webhookOutboxStats(at now: Date) throws(CustomerStoreError) -> WebhookOutboxStats {
        try read { (connection) throws(SQLiteError) -> WebhookOutboxStats in
            try connection.withStatement("""
                SELECT COALESCE(SUM(d.state = 'pending'), 0), COALESCE(SUM(d.state = 'pending' AND d.last_error IS NOT NULL), 0),
                    COALESCE(SUM(d.state = 'dead'), 0), COALESCE(SUM(d.state = 'delivered'), 0),
                    MIN(CASE WHEN d.state = 'pending' THEN e.created_ms END)
                FROM webhook_deliveries d JOIN webhook_events e ON e.sequence = d.sequence
                """, []) { (row) throws(SQLiteError) -> WebhookOutboxStats in
                _ = try row.step()
                let oldest = row.isNull(4) ? nil : Date(millisecondsSince1970: row.int64(4))
                return WebhookOutboxStats(pending: Int(row.int64(0)), failing: Int(row.int64(1)),
                                          dead: Int(row.int64(2)), delivered: Int(row.int64(3)),
                                          oldestPendingAgeSeconds: oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0)
            }
        }
    }

}
