import Foundation
import TallyCore

/// One delivery claimed for sending: an event for one endpoint, under a lease.
public struct WebhookDelivery: Sendable, Hashable {
    /// The event's sequence in the outbox (its order).
    public var sequence: Int64
    /// The endpoint's key (its configured URL).
    public var endpoint: String
    /// The event's id.
    public var eventId: String
    /// The customer it is about.
    public var appUserId: String
    /// The event as written (without aliases, entitlements and attributes; the sender fills them in).
    public var body: [UInt8]
    /// Attempts made so far, this one included.
    public var attempts: Int
    /// The claim's token: only its holder settles it.
    public var leaseToken: String

    /// Creates one.
    public init(sequence: Int64, endpoint: String, eventId: String, appUserId: String, body: [UInt8], attempts: Int,
                leaseToken: String) {
        self.sequence = sequence
        self.endpoint = endpoint
        self.eventId = eventId
        self.appUserId = appUserId
        self.body = body
        self.attempts = attempts
        self.leaseToken = leaseToken
    }
}

/// What became of one attempt.
public enum WebhookAttemptResult: Sendable, Hashable {
    /// A 2xx: delivered, `status`.
    case delivered(status: Int)
    /// Failed (`status` nil for no answer: a timeout, a refused connection); tried again at `retryAt`.
    case retry(at: Date, status: Int?, error: String)
    /// Failed on the last attempt: dead-lettered.
    case dead(status: Int?, error: String)
}

/// Which deliveries ``WebhookOutbox/webhookDeliveries(_:limit:before:)`` lists.
public enum WebhookDeliveryFilter: String, Sendable, Hashable, CaseIterable {
    /// Every delivery.
    case all
    /// Not yet delivered and not dead (failing ones included).
    case pending
    /// Pending after at least one failed attempt.
    case failed
    /// Dead-lettered.
    case dead
    /// Delivered.
    case delivered
}

/// The state of one delivery.
public enum WebhookDeliveryState: String, Sendable, Hashable {
    /// Waiting for its (next) attempt.
    case pending
    /// Answered 2xx.
    case delivered
    /// Every attempt failed.
    case dead
}

/// One delivery as listed.
public struct WebhookDeliveryRecord: Sendable, Hashable {
    /// The event's sequence.
    public var sequence: Int64
    /// The event's id.
    public var eventId: String
    /// The event's type.
    public var type: String
    /// The customer.
    public var appUserId: String
    /// The endpoint's key.
    public var endpoint: String
    /// Its state.
    public var state: WebhookDeliveryState
    /// Attempts made.
    public var attempts: Int
    /// When the event was written.
    public var createdAt: Date
    /// When the next attempt is due (pending only).
    public var nextAttemptAt: Date?
    /// The last attempt's HTTP status; nil for none or no answer.
    public var lastStatus: Int?
    /// The last failure; nil for none.
    public var lastError: String?
    /// When it was delivered.
    public var deliveredAt: Date?

    /// Creates one.
    public init(sequence: Int64, eventId: String, type: String, appUserId: String, endpoint: String,
                state: WebhookDeliveryState, attempts: Int, createdAt: Date, nextAttemptAt: Date?, lastStatus: Int?,
                lastError: String?, deliveredAt: Date?) {
        self.sequence = sequence
        self.eventId = eventId
        self.type = type
        self.appUserId = appUserId
        self.endpoint = endpoint
        self.state = state
        self.attempts = attempts
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.deliveredAt = deliveredAt
    }
}

/// The outbox's counts, for `/metrics` and the dashboard.
public struct WebhookOutboxStats: Sendable, Hashable {
    /// Deliveries waiting (failing ones included).
    public var pending: Int
    /// Pending deliveries that failed at least once.
    public var failing: Int
    /// Dead-lettered deliveries.
    public var dead: Int
    /// Delivered deliveries.
    public var delivered: Int
    /// Seconds since the oldest pending delivery's event was written; 0 when none is pending.
    public var oldestPendingAgeSeconds: Double

    /// Creates stats.
    public init(pending: Int, failing: Int, dead: Int, delivered: Int, oldestPendingAgeSeconds: Double) {
        self.pending = pending
        self.failing = failing
        self.dead = dead
        self.delivered = delivered
        self.oldestPendingAgeSeconds = oldestPendingAgeSeconds
    }
}
