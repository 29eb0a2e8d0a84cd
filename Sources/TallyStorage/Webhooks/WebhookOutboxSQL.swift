/// The outbox's SQL that both stores share word for word (placeholders differ: `?` in SQLite, `$n` in
/// PostgreSQL, so each store writes its own statements from these fragments).
public enum WebhookOutboxSQL {
    /// A pending delivery `d` with no earlier pending delivery of the same customer and endpoint: the head of
    /// its customer's queue for that endpoint (order per customer).
    public static let isHeadOfLine = """
        d.state = 'pending' AND NOT EXISTS (
            SELECT 1 FROM webhook_deliveries p WHERE p.state = 'pending' AND p.endpoint = d.endpoint
            AND p.app_user_id = d.app_user_id AND p.sequence < d.sequence)
        """

    /// The `WHERE` condition of a listing filter over deliveries `d`.
    public static func condition(_ filter: WebhookDeliveryFilter) -> String {
        switch filter {
        case .all: "1 = 1"
        case .pending: "d.state = 'pending'"
        case .failed: "d.state = 'pending' AND d.last_error IS NOT NULL"
        case .dead: "d.state = 'dead'"
        case .delivered: "d.state = 'delivered'"
        }
    }

    /// The columns a listing reads, in ``WebhookDeliveryRecord``'s order.
    public static let listedColumns = """
        d.sequence, e.event_id, e.type, d.app_user_id, d.endpoint, d.state, d.attempts, e.created_ms,
        d.next_attempt_ms, d.last_status, d.last_error, d.delivered_ms
        """
}

extension WebhookAttemptResult {
    /// The delivery's new state.
    public var state: WebhookDeliveryState {
        switch self {
        case .delivered: .delivered
        case .retry: .pending
        case .dead: .dead
        }
    }

    /// The status to store; nil for none.
    public var status: Int? {
        switch self {
        case .delivered(let status): status
        case .retry(_, let status, _), .dead(let status, _): status
        }
    }

    /// The error to store; nil once delivered.
    public var error: String? {
        switch self {
        case .delivered: nil
        case .retry(_, _, let error), .dead(_, let error): error
        }
    }
}
