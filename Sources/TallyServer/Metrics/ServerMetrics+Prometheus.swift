import Foundation
import TallyStorage

extension ServerMetrics {
    /// The metrics in Prometheus' text exposition format (version 0.0.4).
    /// `oldestPendingNotificationAge` (seconds) and the state cache's `cacheUsage` are written as gauges when given.
    /// `webhooks`, the outbox's counts, are written as gauges when given (webhooks configured).
    public func prometheusText(oldestPendingNotificationAge: Double? = nil,
                               cacheUsage: (entries: Int, bytes: Int)? = nil,
                               webhooks: WebhookOutboxStats? = nil) -> String {
        let snapshot = storage.withLock { $0 }
        var lines: [String] = []
        lines.append("# HELP tally_http_requests_total HTTP requests answered, by route template, method and status.")
        lines.append("# TYPE tally_http_requests_total counter")
        for (key, count) in snapshot.requests.sorted(by: { Self.order($0.key, $1.key) }) {
            lines.append("tally_http_requests_total{route=\"\(Self.escape(key.route))\",method=\"\(Self.escape(key.method))\","
                         + "status=\"\(key.status)\"} \(count)")
        }
        lines.append("# HELP tally_http_request_duration_seconds Time to answer a request, by route template.")
        lines.append("# TYPE tally_http_request_duration_seconds histogram")
        for (route, histogram) in snapshot.latency.sorted(by: { $0.key < $1.key }) {
            let label = "route=\"\(Self.escape(route))\""
            var cumulative = 0
            for (index, bound) in Self.bucketBounds.enumerated() {
                cumulative += histogram.buckets[index]
                lines.append("tally_http_request_duration_seconds_bucket{\(label),le=\"\(bound)\"} \(cumulative)")
            }
            lines.append("tally_http_request_duration_seconds_bucket{\(label),le=\"+Inf\"} \(histogram.count)")
            lines.append("tally_http_request_duration_seconds_sum{\(label)} \(histogram.sum)")
            lines.append("tally_http_request_duration_seconds_count{\(label)} \(histogram.count)")
        }
        lines.append("# HELP tally_verifications_total Verifications of posted transactions and receipts, by result.")
        lines.append("# TYPE tally_verifications_total counter")
        for (key, count) in snapshot.verifications.sorted(by: { ($0.key.kind, $0.key.result) < ($1.key.kind, $1.key.result) }) {
            lines.append("tally_verifications_total{kind=\"\(Self.escape(key.kind))\",result=\"\(Self.escape(key.result))\"} \(count)")
        }
        lines.append("# HELP tally_notifications_total App Store Server Notifications received, by type and result.")
        lines.append("# TYPE tally_notifications_total counter")
        for (key, count) in snapshot.notifications.sorted(by: { ($0.key.type, $0.key.result) < ($1.key.type, $1.key.result) }) {
            lines.append("tally_notifications_total{type=\"\(Self.escape(key.type))\",result=\"\(Self.escape(key.result))\"} \(count)")
        }
        if !snapshot.consumptionAnswers.isEmpty {
            lines.append("# HELP tally_consumption_answers_total CONSUMPTION_REQUESTs answered (sent), refused by Apple, "
                         + "skipped (already refunded) or expired (Apple's 12-hour window ended).")
            lines.append("# TYPE tally_consumption_answers_total counter")
            for (status, count) in snapshot.consumptionAnswers.sorted(by: { $0.key < $1.key }) {
                lines.append("tally_consumption_answers_total{status=\"\(Self.escape(status))\"} \(count)")
            }
        }
        if let age = oldestPendingNotificationAge {
            lines.append("# HELP tally_notifications_oldest_pending_age_seconds Age of the oldest notification stored but "
                         + "not yet applied (its chain has no owner yet); 0 when none waits.")
            lines.append("# TYPE tally_notifications_oldest_pending_age_seconds gauge")
            lines.append("tally_notifications_oldest_pending_age_seconds \(age)")
        }
        if !snapshot.webhookAttempts.isEmpty || webhooks != nil {
            lines.append("# HELP tally_webhook_attempts_total Webhook POSTs this server made, by result: delivered (2xx), "
                         + "failed (to be retried) or dead (the last attempt failed).")
            lines.append("# TYPE tally_webhook_attempts_total counter")
            for result in ["dead", "delivered", "failed"] {
                lines.append("tally_webhook_attempts_total{result=\"\(result)\"} \(snapshot.webhookAttempts[result] ?? 0)")
            }
        }
        if let webhooks {
            lines.append("# HELP tally_webhook_deliveries Webhook deliveries in the outbox, by state (failing: pending after "
                         + "a failed attempt; pending counts them too).")
            lines.append("# TYPE tally_webhook_deliveries gauge")
            for (state, count) in [("dead", webhooks.dead), ("delivered", webhooks.delivered), ("failing", webhooks.failing),
                                   ("pending", webhooks.pending)] {
                lines.append("tally_webhook_deliveries{state=\"\(state)\"} \(count)")
            }
            lines.append("# HELP tally_webhook_oldest_pending_age_seconds Age of the oldest undelivered webhook event; "
                         + "0 when none waits.")
            lines.append("# TYPE tally_webhook_oldest_pending_age_seconds gauge")
            lines.append("tally_webhook_oldest_pending_age_seconds \(webhooks.oldestPendingAgeSeconds)")
        }
        if let cacheUsage {
            lines.append("# HELP tally_state_cache_entries Customers in the state cache (GET /v1/customers/{id}).")
            lines.append("# TYPE tally_state_cache_entries gauge")
            lines.append("tally_state_cache_entries \(cacheUsage.entries)")
            lines.append("# HELP tally_state_cache_bytes Bytes of customer ids and encoded states in the state cache.")
            lines.append("# TYPE tally_state_cache_bytes gauge")
            lines.append("tally_state_cache_bytes \(cacheUsage.bytes)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func order(_ left: RequestKey, _ right: RequestKey) -> Bool {
        (left.route, left.method, left.status) < (right.route, right.method, right.status)
    }

    /// A label value with `\`, `"` and newlines escaped.
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
