import Foundation
import TallyCore
import TallyStorage

extension PostgresCustomerStore: WebhookOutbox {
    /// Routes events to `routing` from now on; each commit of this store then calls `committed`.
    public func routeWebhooks(_ routing: WebhookRouting, committed: (@Sendable () -> Void)?) {
        webhookRoutes.route(routing, committed: committed)
    }

    /// The endpoints events are written for.
    public var webhookRouting: WebhookRouting { webhookRoutes.routing }

    /// True: many servers share the database.
    public var webhookOutboxIsShared: Bool { true }

    /// Claims with `FOR UPDATE SKIP LOCKED`: servers claiming together take different rows, and a row claimed (its
    /// lease in the future) is no other server's until its lease ends.
    public func claimWebhookDeliveries(now: Date, lease: TimeInterval, limit: Int) throws(CustomerStoreError)
        -> [WebhookDelivery]
    {
        let token = UUID().uuidString
        let nowMs = now.millisecondsSince1970, until = now.addingTimeInterval(lease).millisecondsSince1970
        return try write("the webhook deliveries cannot be claimed", wakingSender: false) { (connection) throws(PostgresError) -> [WebhookDelivery] in
            let rows = try connection.query("""
                WITH due AS (
                    SELECT d.endpoint, d.sequence FROM webhook_deliveries d
                    WHERE \(WebhookOutboxSQL.isHeadOfLine) AND d.next_attempt_ms <= $1::bigint
                    AND d.lease_until_ms <= $1::bigint
                    ORDER BY d.sequence LIMIT $2::bigint FOR UPDATE SKIP LOCKED)
                UPDATE webhook_deliveries w SET attempts = w.attempts + 1, lease_until_ms = $3::bigint, lease_token = $4
                FROM due, webhook_events e
                WHERE w.endpoint = due.endpoint AND w.sequence = due.sequence AND e.sequence = w.sequence
                RETURNING w.sequence, w.endpoint, e.event_id, w.app_user_id, e.body, w.attempts
                """, [.integer(nowMs), .integer(Int64(limit)), .integer(until), .text(token)])
            var claimed: [WebhookDelivery] = []
            for row in 0..<rows.count {
                claimed.append(WebhookDelivery(
                    sequence: try rows.integer(row, 0) ?? 0, endpoint: try rows.requiredText(row, 1),
                    eventId: try rows.requiredText(row, 2), appUserId: try rows.requiredBytes(row, 3),
                    body: Array(try rows.requiredText(row, 4).utf8), attempts: Int(try rows.integer(row, 5) ?? 1),
                    leaseToken: token))
            }
            return claimed.sorted { $0.sequence < $1.sequence }
        }
    }

    /// Stores the attempt's result if the claim is still this one (its lease token); false when it was lost.
    @discardableResult
    public func settleWebhookDelivery(_ delivery: WebhookDelivery, _ result: WebhookAttemptResult, at date: Date)
        throws(CustomerStoreError) -> Bool
    {
        var next: Int64 = 0
        if case .retry(let at, _, _) = result { next = at.millisecondsSince1970 }
        let delivered: PostgresValue = result.state == .delivered ? .integer(date.millisecondsSince1970) : .null
        return try write("the webhook delivery cannot be stored", wakingSender: false) { (connection) throws(PostgresError) -> Bool in
            try connection.query("""
                UPDATE webhook_deliveries SET state = $1,
                    next_attempt_ms = CASE WHEN $2::bigint > 0 THEN $2::bigint ELSE next_attempt_ms END,
                    lease_until_ms = 0, lease_token = NULL, last_status = $3::integer, last_error = $4,
                    delivered_ms = $5::bigint
                WHERE endpoint = $6 AND sequence = $7::bigint AND lease_token = $8
                """, [.text(result.state.rawValue), .integer(next), result.status.map { .integer(Int64($0)) } ?? .null,
                      .optionalText(result.error), delivered, .text(delivery.endpoint), .integer(delivery.sequence),
                      .text(delivery.leaseToken)]).affected > 0
        }
    }

    /// When the next head-of-line pending delivery falls due (its next attempt, or its lease's end).
    public func nextWebhookDueDate() throws(CustomerStoreError) -> Date? {
        try read("the webhook outbox cannot be read") { (connection) throws(PostgresError) -> Date? in
            let rows = try connection.query("""
                SELECT MIN(GREATEST(d.next_attempt_ms, d.lease_until_ms)) FROM webhook_deliveries d
                WHERE \(WebhookOutboxSQL.isHeadOfLine)
                """)
            return try rows.integer(0, 0).map { Date(millisecondsSince1970: $0) }
        }
    }

    /// Nothing: other servers may hold leases on the shared outbox; a lease of a server that died ends by itself.
    public func releaseWebhookLeases() throws(CustomerStoreError) {}

    /// Deliveries by `filter`, newest event first, from one snapshot.
    public func webhookDeliveries(_ filter: WebhookDeliveryFilter, limit: Int, before: Int64?)
        throws(CustomerStoreError) -> [WebhookDeliveryRecord]
    {
        try read("the webhook deliveries cannot be read") { (connection) throws(PostgresError) -> [WebhookDeliveryRecord] in
            let rows = try connection.query("""
                SELECT \(WebhookOutboxSQL.listedColumns)
                FROM webhook_deliveries d JOIN webhook_events e ON e.sequence = d.sequence
                WHERE \(WebhookOutboxSQL.condition(filter)) AND d.sequence < $1::bigint
                ORDER BY d.sequence DESC, d.endpoint LIMIT $2::bigint
                """, [.integer(before ?? Int64.max), .integer(Int64(max(0, limit)))])
            var found: [WebhookDeliveryRecord] = []
            for row in 0..<rows.count {
                let state = WebhookDeliveryState(rawValue: try rows.requiredText(row, 5)) ?? .pending
                found.append(WebhookDeliveryRecord(
                    sequence: try rows.integer(row, 0) ?? 0, eventId: try rows.requiredText(row, 1),
                    type: try rows.requiredText(row, 2), appUserId: try rows.requiredBytes(row, 3),
                    endpoint: try rows.requiredText(row, 4), state: state, attempts: Int(try rows.integer(row, 6) ?? 0),
                    createdAt: Date(millisecondsSince1970: try rows.integer(row, 7) ?? 0),
                    nextAttemptAt: state == .pending ? (try rows.integer(row, 8)).map(Date.init(millisecondsSince1970:)) : nil,
                    lastStatus: (try rows.integer(row, 9)).map { Int($0) }, lastError: rows.text(row, 10),
                    deliveredAt: (try rows.integer(row, 11)).map(Date.init(millisecondsSince1970:))))
            }
            return found
        }
    }

    /// Makes the event's undelivered deliveries due at `now`, attempts from zero (none under a live lease).
    public func retryWebhookEvent(_ eventId: String, at now: Date) throws(CustomerStoreError) -> Int {
        try write("the webhook delivery cannot be retried") { (connection) throws(PostgresError) -> Int in
            try connection.query("""
                UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_ms = $1::bigint
                WHERE state <> 'delivered' AND lease_until_ms <= $1::bigint
                AND sequence = (SELECT sequence FROM webhook_events WHERE event_id = $2)
                """, [.integer(now.millisecondsSince1970), .text(eventId)]).affected
        }
    }

    /// Queues again every delivery of the events written since `since` (none under a live lease), same ids.
    public func replayWebhookEvents(since: Date, at now: Date) throws(CustomerStoreError) -> Int {
        try write("the webhook events cannot be replayed") { (connection) throws(PostgresError) -> Int in
            try connection.query("""
                UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_ms = $1::bigint,
                    delivered_ms = NULL
                WHERE lease_until_ms <= $1::bigint
                AND sequence IN (SELECT sequence FROM webhook_events WHERE created_ms >= $2::bigint)
                """, [.integer(now.millisecondsSince1970), .integer(since.millisecondsSince1970)]).affected
        }
    }

    /// Writes `event` with a delivery for every endpoint that takes it, due now.
    public func enqueueWebhookEvent(_ event: WebhookEvent, at now: Date) throws(CustomerStoreError) -> Int {
        let endpoints = webhookRouting.endpoints(for: event.type)
        guard !endpoints.isEmpty else { return 0 }
        try write("the webhook event cannot be stored") { (connection) throws(PostgresError) in
            try connection.insertWebhookEvent(event, endpoints: endpoints, at: now)
        }
        return endpoints.count
    }

    /// The outbox's counts and its oldest pending delivery's age, in one statement.
    public func webhookOutboxStats(at now: Date) throws(CustomerStoreError) -> WebhookOutboxStats {
        try read("the webhook outbox cannot be read") { (connection) throws(PostgresError) -> WebhookOutboxStats in
            let rows = try connection.query("""
                SELECT count(*) FILTER (WHERE d.state = 'pending'),
                    count(*) FILTER (WHERE d.state = 'pending' AND d.last_error IS NOT NULL),
                    count(*) FILTER (WHERE d.state = 'dead'), count(*) FILTER (WHERE d.state = 'delivered'),
                    MIN(e.created_ms) FILTER (WHERE d.state = 'pending')
                FROM webhook_deliveries d JOIN webhook_events e ON e.sequence = d.sequence
                """)
            let oldest = try rows.integer(0, 4).map(Date.init(millisecondsSince1970:))
            return WebhookOutboxStats(pending: Int(try rows.integer(0, 0) ?? 0), failing: Int(try rows.integer(0, 1) ?? 0),
                                      dead: Int(try rows.integer(0, 2) ?? 0), delivered: Int(try rows.integer(0, 3) ?? 0),
                                      oldestPendingAgeSeconds: oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0)
        }
    }

    /// Writes the `VIRTUAL_CURRENCY_TRANSACTION` event of `spend`, in the spend's transaction.
    func emitSpend(_ spend: Spend, of appUserId: String, on connection: PostgresConnection) throws(PostgresError) {
        try PostgresTransactionRows(connection: connection, webhooks: webhookRouting).emit(
            [WebhookEventRules.spend(id: spend.id, currency: spend.currency, amount: spend.amount, owner: appUserId,
                                     at: spend.date, id: WebhookEventId.make())], date: spend.date)
    }
}

extension PostgresConnection {
    /// Writes `event` to `webhook_events` and a pending delivery due at `date` for each of `endpoints`.
    func insertWebhookEvent(_ event: WebhookEvent, endpoints: [String], at date: Date) throws(PostgresError) {
        let now = date.millisecondsSince1970
        let rows = try query("""
            INSERT INTO webhook_events (event_id, type, app_user_id, created_ms, body)
            VALUES ($1, $2, $3, $4::bigint, $5) RETURNING sequence
            """, [.text(event.id), .text(event.type.rawValue), .bytes(event.appUserId), .integer(now),
                  .text(String(decoding: event.json, as: UTF8.self))])
        let sequence = try rows.integer(0, 0) ?? 0
        for endpoint in endpoints {
            try query("""
                INSERT INTO webhook_deliveries (sequence, endpoint, app_user_id, state, next_attempt_ms)
                VALUES ($1::bigint, $2, $3, 'pending', $4::bigint)
                """, [.integer(sequence), .text(endpoint), .bytes(event.appUserId), .integer(now)])
        }
    }
}
