import Foundation
import TallyCore
import TallyServer
import TallyStorage

/// `tally serve webhooks list|retry ID|replay --since DATE|test --data DIR --config FILE`: the webhook outbox's
/// operations (docs/webhooks.md) on the store `tally-server.json` names. Safe beside a running `tally serve` (its
/// sender picks the changes up within its next look, at most 5 s on SQLite, 1 s on PostgreSQL).
enum ServeWebhooks {
    static func run(_ words: [String]) throws -> Int32 {
        guard let action = words.first, ["list", "retry", "replay", "test"].contains(action) else {
            throw UsageError("missing or unknown action: list, retry ID, replay --since DATE or test")
        }
        let arguments = try Arguments(words.dropFirst(), flags: ["json"],
                                      options: ["data", "config", "filter", "limit", "before", "since"])
        let paths = try ServeOffline.paths(arguments)
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration(contentsOf: URL(fileURLWithPath: paths.config))
        } catch {
            Output.error("tally serve webhooks: \(error.description)")
            return ExitCode.usage
        }
        let json = arguments.flag("json")
        do {
            guard let outbox = try ServeStore.open(configuration, data: paths.data, readers: 1) as? any WebhookOutbox else {
                Output.error("tally serve webhooks: this store keeps no webhook outbox")
                return ExitCode.refused
            }
            outbox.routeWebhooks(configuration.webhooks.routing, committed: nil)
            switch action {
            case "list": return try list(outbox, arguments, json: json)
            case "retry":
                let id = try arguments.positional(0, "the event ID to retry")
                let count = try outbox.retryWebhookEvent(id, at: Date())
                report(json, ["retried": count, "id": id], count == 0
                    ? "no undelivered delivery of \(id) (unknown, delivered, or being sent now)" : "retrying \(id): \(count) deliveries due now")
                return count == 0 ? ExitCode.refused : ExitCode.ok
            case "replay":
                if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
                guard let text = arguments.value("since"), let since = ISO8601DateFormatter().date(from: text) else {
                    throw UsageError("missing or bad --since DATE (ISO 8601, such as 2026-11-01T00:00:00Z)")
                }
                let count = try outbox.replayWebhookEvents(since: since, at: Date())
                report(json, ["replayed": count], "replaying \(count) deliveries of the events since \(text), with their ids")
                return ExitCode.ok
            default:
                guard !configuration.webhooks.endpoints.isEmpty else {
                    Output.error("tally serve webhooks test: no endpoint in \"webhooks\"")
                    return ExitCode.usage
                }
                let event = WebhookEvent(id: WebhookEventId.make(), type: .test, appUserId: "tally-webhook-test",
                                         eventAt: Date())
                let count = try outbox.enqueueWebhookEvent(event, at: Date())
                report(json, ["id": event.id, "deliveries": count], "queued TEST event \(event.id) for \(count) endpoints")
                return ExitCode.ok
            }
        } catch let error as CustomerStoreError {
            Output.error("tally serve webhooks: \(error)")
            return ExitCode.refused
        }
    }

    /// `list [--filter all|pending|failed|dead|delivered] [--limit N] [--before SEQUENCE]`: newest first.
    private static func list(_ outbox: any WebhookOutbox, _ arguments: Arguments, json: Bool) throws -> Int32 {
        if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        let filterName = arguments.value("filter") ?? "all"
        guard let filter = WebhookDeliveryFilter(rawValue: filterName) else {
            throw UsageError("--filter must be all, pending, failed, dead or delivered")
        }
        let limit = try arguments.value("limit").map { (text) throws(UsageError) -> Int in
            guard let value = Int(text), (1...10_000).contains(value) else { throw UsageError("--limit must be 1…10000") }
            return value
        } ?? 50
        let before = try arguments.value("before").map { (text) throws(UsageError) -> Int64 in
            guard let value = Int64(text) else { throw UsageError("--before must be a sequence number") }
            return value
        }
        let deliveries = try outbox.webhookDeliveries(filter, limit: limit, before: before)
        let stats = try outbox.webhookOutboxStats(at: Date())
        if json {
            let items: [[String: Any]] = deliveries.map { delivery in
                ["sequence": delivery.sequence, "id": delivery.eventId, "type": delivery.type,
                 "appUserId": delivery.appUserId, "endpoint": delivery.endpoint, "state": delivery.state.rawValue,
                 "attempts": delivery.attempts, "createdAt": ISO8601Milliseconds.string(delivery.createdAt),
                 "nextAttemptAt": delivery.nextAttemptAt.map(ISO8601Milliseconds.string) ?? NSNull(),
                 "lastStatus": delivery.lastStatus.map { $0 as Any } ?? NSNull(),
                 "lastError": delivery.lastError.map { $0 as Any } ?? NSNull(),
                 "deliveredAt": delivery.deliveredAt.map(ISO8601Milliseconds.string) ?? NSNull()]
            }
            let summary: [String: Any] = ["deliveries": items, "pending": stats.pending, "failing": stats.failing,
                                          "dead": stats.dead, "delivered": stats.delivered,
                                          "oldestPendingAgeSeconds": stats.oldestPendingAgeSeconds]
            let data = try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return ExitCode.ok
        }
        for delivery in deliveries {
            let last = delivery.lastError.map { " last: \($0)" } ?? ""
            print("\(delivery.sequence) \(delivery.eventId) \(delivery.type) \(delivery.appUserId) \(delivery.state.rawValue) "
                + "attempts=\(delivery.attempts) \(delivery.endpoint)\(last)")
        }
        print("\(stats.pending) pending (\(stats.failing) failing), \(stats.dead) dead, \(stats.delivered) delivered; "
            + "oldest pending \(Int(stats.oldestPendingAgeSeconds)) s")
        return ExitCode.ok
    }

    /// Prints `fields` as JSON, or `line`.
    private static func report(_ json: Bool, _ fields: [String: Any], _ line: String) {
        guard json, let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else {
            return print(line)
        }
        print(String(decoding: data, as: UTF8.self))
    }
}
