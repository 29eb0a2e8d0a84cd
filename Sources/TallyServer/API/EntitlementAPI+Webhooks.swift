import Foundation
import TallyCore
import TallyHTTP
import TallyStorage

extension EntitlementAPI {
    /// The store's webhook outbox; 501 for a store without one.
    private var webhookOutbox: any WebhookOutbox {
        get throws(APIError) {
            guard let outbox = store as? any WebhookOutbox else {
                throw APIError(501, "not_implemented", "this customer store has no webhook outbox")
            }
            return outbox
        }
    }

    /// `GET /v1/dashboard/webhooks?state=all|pending|failed|dead|delivered&cursor=&limit=`: the outbox's counts
    /// and one page of its deliveries (one per event and endpoint), newest event first.
    func dashboardWebhooks(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let filter: WebhookDeliveryFilter
        if let text = request.query["state"], !text.isEmpty {
            guard let named = WebhookDeliveryFilter(rawValue: text) else {
                let names = WebhookDeliveryFilter.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidRequest("state must be one of \(names)")
            }
            filter = named
        } else {
            filter = .all
        }
        let limit = try dashboardLimit(request)
        let before = try dashboardCursor(request, .webhooks)?.number
        let outbox = try webhookOutbox
        let now = clock.now()
        let (rows, stats) = try storeCall { () throws(CustomerStoreError) in
            (try outbox.webhookDeliveries(filter, limit: limit + 1, before: before), try outbox.webhookOutboxStats(at: now))
        }
        let page = rows.prefix(limit)
        let next = rows.count > limit ? page.last.map { DashboardListPosition(number: $0.sequence).cursor(.webhooks) } : nil
        return Self.dashboardJSON(JSONWriter.object { writer in
            writer.field("endpoints", outbox.webhookRouting.subscriptions.map { Self.shownEndpoint($0.endpoint) })
            writer.key("stats")
            writer.object { writer in
                writer.field("pending", stats.pending)
                writer.field("failing", stats.failing)
                writer.field("dead", stats.dead)
                writer.field("delivered", stats.delivered)
                writer.field("oldestPendingAgeSeconds", Decimal(stats.oldestPendingAgeSeconds.rounded(.down)))
            }
            writer.field("nextCursor", next)
            writer.objects("deliveries", Array(page)) { writer, row in
                writer.field("eventId", row.eventId)
                writer.field("type", row.type)
                writer.field("appUserId", row.appUserId)
                writer.field("endpoint", Self.shownEndpoint(row.endpoint))
                writer.field("state", row.state.rawValue)
                writer.field("attempts", row.attempts)
                writer.field("createdAt", row.createdAt)
                writer.field("nextAttemptAt", row.nextAttemptAt)
                writer.optionalInteger("lastStatus", row.lastStatus)
                writer.field("lastError", row.lastError)
                writer.field("deliveredAt", row.deliveredAt)
            }
        })
    }

    /// An endpoint as the dashboard shows it: scheme, host, port and path, without the user, password, query or
    /// fragment a URL may carry a secret in (the dashboard key only reads, and may be handed out widely).
    static func shownEndpoint(_ url: String) -> String {
        guard var parts = URLComponents(string: url) else { return "(an endpoint)" }
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        return parts.string ?? "(an endpoint)"
    }

    /// `POST /v1/dashboard/webhooks/retry` with `{"eventId": "…"}` (secret key): every undelivered delivery of the
    /// event, dead-lettered ones included, due now with its attempts counted afresh; 404 when the event
    /// has none (unknown, or delivered everywhere): `unknown_webhook_event`.
    func retryWebhook(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let eventId = try requiredString(bodyObject(request), "eventId")
        guard eventId.utf8.count <= Router.maxAppUserIdBytes else { throw .invalidRequest("eventId is too long") }
        let outbox = try webhookOutbox
        let now = clock.now()
        let changed = try storeCall { () throws(CustomerStoreError) in try outbox.retryWebhookEvent(eventId, at: now) }
        guard changed > 0 else {
            throw APIError(404, "unknown_webhook_event", "no webhook event with this eventId waits for delivery (unknown, or delivered to every endpoint)")
        }
        return Self.dashboardJSON(JSONWriter.object { writer in
            writer.field("eventId", eventId)
            writer.field("requeued", changed)
        })
    }
}

extension JSONWriter {
    /// `key` with an integer, or null.
    fileprivate mutating func optionalInteger(_ key: String, _ value: Int?) {
        self.key(key)
        if let value { integer(value) } else { null() }
    }
}
