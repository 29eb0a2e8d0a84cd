import Foundation
import TallyLocking

/// Counters and a latency histogram, written out in Prometheus' text format by ``prometheusText(oldestPendingNotificationAge:cacheUsage:webhooks:)``.
public final class ServerMetrics: Sendable {
    struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    struct VerificationKey: Hashable {
        var kind: String
        var result: String
    }

    struct Histogram {
        var buckets: [Int]
        var sum: Double = 0
        var count = 0

        /// Counts one observation of `seconds`, in bucket `index` (none above the last bound).
        mutating func observe(_ seconds: Double, bucket index: Int?) {
            if let index { buckets[index] += 1 }
            sum += seconds
            count += 1
        }
    }

    struct Storage {
        var requests: [RequestKey: Int] = [:]
        var latency: [String: Histogram] = [:]
        var verifications: [VerificationKey: Int] = [:]
        var notifications: [NotificationKey: Int] = [:]
        var consumptionAnswers: [String: Int] = [:]
        var webhookAttempts: [String: Int] = [:]
    }

    struct NotificationKey: Hashable {
        var type: String
        var result: String
    }

    /// Upper bounds of the latency buckets, in seconds.
    static let bucketBounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    let storage = Locked(Storage())

    /// Empty metrics.
    public init() {}

    /// Counts one answered request and its duration.
    public func recordRequest(route: String, method: String, status: Int, seconds: Double) {
        let bucket = Self.bucketBounds.firstIndex(where: { seconds <= $0 })
        storage.withLock { storage in
            storage.requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
            // Mutated in place (a copy out and back would copy the buckets on every request, under the lock).
            storage.latency[route, default: Histogram(buckets: Array(repeating: 0, count: Self.bucketBounds.count))]
                .observe(seconds, bucket: bucket)
        }
    }

    /// Counts one verification: `kind` is `transaction` or `receipt`, `result` is `valid` or Apple's reason.
    public func recordVerification(kind: String, result: String) {
        storage.withLock { $0.verifications[VerificationKey(kind: kind, result: result), default: 0] += 1 }
    }

    /// How many verifications of `kind` ended with `result`.
    public func verifications(kind: String, result: String) -> Int {
        storage.withLock { $0.verifications[VerificationKey(kind: kind, result: result)] ?? 0 }
    }

    /// Counts one notification: its `notificationType` and what became of it (a `NotificationResult` name,
    /// or `failed` when the store failed).
    public func recordNotification(type: String, result: String) {
        storage.withLock { $0.notifications[NotificationKey(type: type, result: result), default: 0] += 1 }
    }

    /// How many notifications of `type` ended with `result`.
    public func notifications(type: String, result: String) -> Int {
        storage.withLock { $0.notifications[NotificationKey(type: type, result: result)] ?? 0 }
    }

    /// Counts one answer to a `CONSUMPTION_REQUEST` by its `ConsumptionAnswer.Status` name.
    public func recordConsumptionAnswer(status: String) {
        storage.withLock { $0.consumptionAnswers[status, default: 0] += 1 }
    }

    /// How many `CONSUMPTION_REQUEST`s ended with `status`.
    public func consumptionAnswers(status: String) -> Int {
        storage.withLock { $0.consumptionAnswers[status] ?? 0 }
    }

    /// Counts one webhook attempt of this server by its result: `delivered`, `failed` (to be retried) or `dead`.
    public func recordWebhookAttempt(result: String) {
        storage.withLock { $0.webhookAttempts[result, default: 0] += 1 }
    }

    /// How many webhook attempts of this server ended with `result`.
    public func webhookAttempts(result: String) -> Int {
        storage.withLock { $0.webhookAttempts[result] ?? 0 }
    }
}
