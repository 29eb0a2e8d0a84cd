import TallyCore
import TallyLocking

/// What a store writes webhook events by: the endpoints routed (``WebhookOutbox/routeWebhooks(_:committed:)``) and
/// whom to tell after each of its commits (the sender's wake-up), both changeable from any thread.
public final class WebhookRoutes: Sendable {
    private struct State {
        var routing = WebhookRouting()
        var committed: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    /// No endpoint: no events are written.
    public init() {}

    /// The endpoints events are written for.
    public var routing: WebhookRouting { state.withLock { $0.routing } }

    /// Routes events to `routing` from now on; `committed` is called after each commit while any endpoint is routed.
    public func route(_ routing: WebhookRouting, committed: (@Sendable () -> Void)?) {
        state.withLock { state in
            state.routing = routing
            state.committed = committed
        }
    }

    /// Tells the sender a commit happened (nothing while no endpoint is routed).
    public func didCommit() {
        let committed = state.withLock { $0.routing.isEnabled ? $0.committed : nil }
        committed?()
    }
}
