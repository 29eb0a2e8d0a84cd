import Foundation
import TallyCore

/// One webhook endpoint (`webhooks[i]` of `tally-server.json`, docs/webhooks.md).
public struct WebhookEndpoint: Sendable, Hashable {
    /// Where events are POSTed (absolute `http` or `https`); also the endpoint's key in the outbox.
    public var url: URL
    /// The signing secret's bytes: a `whsec_` secret's base64 after the prefix (Standard Webhooks), else the
    /// secret's UTF-8 bytes.
    public var secret: [UInt8]
    /// The event types it takes; nil: every type (`"*"`).
    public var types: Set<WebhookEventType>?
    /// How failed attempts are retried.
    public var retry: WebhookRetryPolicy
    /// How long one attempt may take before it counts as failed, in seconds (`timeoutSeconds`, default 10).
    public var timeoutSeconds: Double

    /// Creates an endpoint.
    public init(url: URL, secret: [UInt8], types: Set<WebhookEventType>? = nil,
                retry: WebhookRetryPolicy = WebhookRetryPolicy(), timeoutSeconds: Double = 10) {
        self.url = url
        self.secret = secret
        self.types = types
        self.retry = retry
        self.timeoutSeconds = timeoutSeconds
    }

    /// Its key in the outbox: the URL as configured.
    public var key: String { url.absoluteString }

    /// The bytes a configured `secret` signs with: `whsec_BASE64` decoded (Standard Webhooks), else its UTF-8
    /// bytes; nil for an empty secret or a `whsec_` one that is not base64.
    public static func secretBytes(_ secret: String) -> [UInt8]? {
        guard !secret.isEmpty else { return nil }
        guard secret.hasPrefix("whsec_") else { return Array(secret.utf8) }
        guard let data = Data(base64Encoded: String(secret.dropFirst(6))), !data.isEmpty else { return nil }
        return Array(data)
    }
}

/// When a failed delivery is tried again: exponential back-off with jitter, from ``initialDelaySeconds`` up to
/// ``maxDelaySeconds``, for ``attempts`` attempts in all; then it is dead-lettered.
public struct WebhookRetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included (default 12).
    public var attempts: Int
    /// The wait after the first failure, in seconds (default 5).
    public var initialDelaySeconds: Double
    /// The longest wait, in seconds (default 86 400: a day), reached by the last retry.
    public var maxDelaySeconds: Double

    /// Creates a policy.
    public init(attempts: Int = 12, initialDelaySeconds: Double = 5, maxDelaySeconds: Double = 86_400) {
        self.attempts = attempts
        self.initialDelaySeconds = initialDelaySeconds
        self.maxDelaySeconds = max(maxDelaySeconds, initialDelaySeconds)
    }

    /// The wait after failed attempt number `attempt` (1-based): `initial × growth^(attempt − 1)`, the growth such
    /// that the last retry waits ``maxDelaySeconds``, times a jitter from 0.8 to 1.2 (`unit`, 0…1, picks it),
    /// never above ``maxDelaySeconds``.
    public func delay(afterAttempt attempt: Int, unit: Double = Double.random(in: 0...1)) -> Double {
        let steps = max(attempts - 2, 1)
        let growth = pow(maxDelaySeconds / initialDelaySeconds, 1 / Double(steps))
        let base = initialDelaySeconds * pow(growth, Double(max(0, attempt - 1)))
        return min(maxDelaySeconds, base * (0.8 + 0.4 * min(max(unit, 0), 1)))
    }
}

/// The `webhooks` of `tally-server.json`: the endpoints events are sent to (none by default).
public struct WebhookSettings: Sendable, Hashable {
    /// The endpoints, in configuration order.
    public var endpoints: [WebhookEndpoint]

    /// Settings with `endpoints`.
    public init(endpoints: [WebhookEndpoint] = []) {
        self.endpoints = endpoints
    }

    /// The store's routing: each endpoint's key and the types it takes.
    public var routing: WebhookRouting {
        WebhookRouting(endpoints.map { WebhookSubscription(endpoint: $0.key, types: $0.types) })
    }
}
