import Foundation
import TallyCore

extension ServerConfiguration {
    static let webhookKeys = ["url", "secret", "events", "retry", "timeoutSeconds"]
    static let webhookRetryKeys = ["attempts", "initialDelaySeconds", "maxDelaySeconds"]

    /// `webhooks`: an array of endpoints, each an absolute http(s) `url` (no two alike), a non-empty `secret`,
    /// `events` (type names of docs/webhooks.md, or `"*"`), an optional `retry` and `timeoutSeconds`.
    static func loadWebhooks(_ node: JSONCursor?, reader: inout ConfigurationReader) -> WebhookSettings {
        guard let node, let elements = reader.array(node) else { return WebhookSettings() }
        var endpoints: [WebhookEndpoint] = []
        for element in elements {
            guard let members = reader.object(element, allowed: webhookKeys) else { continue }
            let path = element.path
            var url: URL?
            if let value = members["url"], let text = reader.string(value) {
                if let parsed = URL(string: text), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
                   parsed.host?.isEmpty == false {
                    url = parsed
                    if endpoints.contains(where: { $0.key == parsed.absoluteString }) {
                        reader.problem(value.path, "names an endpoint already configured; each url once")
                    }
                } else {
                    reader.problem(value.path, "must be an absolute http or https URL, such as https://example.com/tally")
                }
            } else if members["url"] == nil {
                reader.problem("\(path).url", "is required: where the events are POSTed")
            }
            var secret: [UInt8]?
            if let value = members["secret"], let text = reader.string(value) {
                secret = WebhookEndpoint.secretBytes(text)
                if secret == nil { reader.problem(value.path, "a whsec_ secret must be base64 after the prefix") }
            } else if members["secret"] == nil {
                reader.problem("\(path).secret", "is required: the secret the receiver checks signatures with")
            }
            let types = loadWebhookTypes(members["events"], path: path, reader: &reader)
            var retry = WebhookRetryPolicy()
            if let value = members["retry"], let settings = reader.object(value, allowed: webhookRetryKeys) {
                if let node = settings["attempts"], let count = reader.integer(node, in: 1...100) { retry.attempts = Int(count) }
                if let node = settings["initialDelaySeconds"], let seconds = reader.positiveNumber(node) {
                    retry.initialDelaySeconds = seconds
                }
                if let node = settings["maxDelaySeconds"], let seconds = reader.positiveNumber(node) {
                    retry.maxDelaySeconds = seconds
                }
                if retry.maxDelaySeconds < retry.initialDelaySeconds {
                    reader.problem("\(value.path).maxDelaySeconds", "must not be below initialDelaySeconds")
                }
            }
            var timeout = 10.0
            if let value = members["timeoutSeconds"], let seconds = reader.positiveNumber(value) {
                if seconds > 300 { reader.problem(value.path, "must be at most 300") } else { timeout = seconds }
            }
            if let url, let secret, let types {
                endpoints.append(WebhookEndpoint(url: url, secret: secret, types: types.all ? nil : types.listed,
                                                 retry: retry, timeoutSeconds: timeout))
            }
        }
        return WebhookSettings(endpoints: endpoints)
    }

    /// `events`: `["*"]` for every type, else known type names, at least one.
    private static func loadWebhookTypes(_ node: JSONCursor?, path: String, reader: inout ConfigurationReader)
        -> (all: Bool, listed: Set<WebhookEventType>)?
    {
        guard let node else {
            reader.problem("\(path).events", "is required: [\"*\"] for every event, or the event types to send")
            return nil
        }
        guard let elements = reader.array(node) else { return nil }
        var all = false, listed = Set<WebhookEventType>(), good = !elements.isEmpty
        if elements.isEmpty { reader.problem(node.path, "must name at least one event type, or \"*\"") }
        for element in elements {
            guard let name = reader.string(element) else { good = false; continue }
            if name == "*" { all = true } else if let type = WebhookEventType(name: name) { listed.insert(type) } else {
                reader.problem(element.path, "\"\(name)\" is not an event type; they are "
                    + WebhookEventType.allCases.map(\.rawValue).joined(separator: ", ") + ", or \"*\"")
                good = false
            }
        }
        return good ? (all, listed) : nil
    }
}
