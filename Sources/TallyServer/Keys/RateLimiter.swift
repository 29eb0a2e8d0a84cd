import Foundation
import Synchronization

/// A token bucket per key: `burst` tokens, refilled at `requestsPerSecond`; a request takes one.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    private let rate: Double
    private let burst: Double
    private let clock: ServerClock
    private let buckets = Mutex<[String: Bucket]>([:])

    init(requestsPerSecond: Double, burst: Int, clock: ServerClock) {
        rate = requestsPerSecond
        self.burst = Double(burst)
        self.clock = clock
    }

    /// Takes a token for `key`: nil when allowed, else the whole seconds to wait before one is available.
    func acquire(_ key: String) -> Int? {
        let now = clock.now()
        return buckets.withLock { buckets -> Int? in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            let elapsed = max(0, now.timeIntervalSince(bucket.updated))
            bucket.tokens = min(burst, bucket.tokens + elapsed * rate)
            bucket.updated = max(now, bucket.updated)
            defer { buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
        }
    }
}
