/// Which event types one endpoint takes: every type (`"*"`) or the ones listed.
public struct WebhookSubscription: Sendable, Hashable {
    /// The endpoint's key in the outbox (its URL as configured).
    public var endpoint: String
    /// The types it takes; nil: every type.
    public var types: Set<WebhookEventType>?

    /// Creates a subscription; `types` nil takes every type.
    public init(endpoint: String, types: Set<WebhookEventType>?) {
        self.endpoint = endpoint
        self.types = types
    }

    /// Whether the endpoint takes events of `type` (a `TEST` event is sent to every endpoint).
    public func takes(_ type: WebhookEventType) -> Bool {
        type == .test || types?.contains(type) ?? true
    }
}

/// The endpoints configured and what each takes: the store writes, for each event, one delivery per endpoint
/// that takes it. Empty: no webhooks, and the store writes no events.
public struct WebhookRouting: Sendable, Hashable {
    /// The endpoints, in configuration order.
    public var subscriptions: [WebhookSubscription]

    /// Routing to `subscriptions`.
    public init(_ subscriptions: [WebhookSubscription] = []) {
        self.subscriptions = subscriptions
    }

    /// Whether any endpoint is configured.
    public var isEnabled: Bool { !subscriptions.isEmpty }

    /// The endpoints that take `type`, in configuration order.
    public func endpoints(for type: WebhookEventType) -> [String] {
        subscriptions.filter { $0.takes(type) }.map(\.endpoint)
    }
}
