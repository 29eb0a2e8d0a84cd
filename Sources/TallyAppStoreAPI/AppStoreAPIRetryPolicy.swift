import Foundation

/// How the client retries, by Apple's rules (../shared/docs/app-store-server-api.md §3.4): a 429 waits until
/// `Retry-After` (a UNIX time in milliseconds) when given, else backs off; the retryable error codes
/// (4040002, 4040004, 4040006, 5000001) and answers without an error body in 5xx, and transport failures,
/// back off exponentially with jitter; 401 and every other error are not retried. Every wait is bounded.
public struct AppStoreAPIRetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included.
    public var maximumAttempts: Int
    /// The first back-off; doubled each attempt.
    public var baseDelay: TimeInterval
    /// No single wait is longer.
    public var maximumDelay: TimeInterval

    /// Creates a policy.
    public init(maximumAttempts: Int = 6, baseDelay: TimeInterval = 0.5, maximumDelay: TimeInterval = 30) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.baseDelay = max(0, baseDelay)
        self.maximumDelay = max(0, maximumDelay)
    }

    /// Error codes Apple lists under "Errors to retry".
    public static let retryableErrorCodes: Set<Int> = [4_040_002, 4_040_004, 4_040_006, 5_000_001]

    /// The back-off before attempt `attempt + 1` (attempt counts from 1): `baseDelay × 2^(attempt-1)`, with up
    /// to half of it as random jitter, capped at ``maximumDelay``.
    public func backOff(after attempt: Int, random: Double) -> TimeInterval {
        let exponential = baseDelay * pow(2, Double(max(0, attempt - 1)))
        return min(maximumDelay, exponential * (1 + 0.5 * min(max(random, 0), 1)))
    }

    /// The wait a 429 asks for: until `retryAfter` (ms since 1970) when given and in the future, capped.
    public func rateLimitWait(retryAfter: String?, now: Date, attempt: Int, random: Double) -> TimeInterval {
        if let retryAfter, let milliseconds = Double(retryAfter) {
            let wait = milliseconds / 1_000 - now.timeIntervalSince1970
            if wait > 0 { return min(maximumDelay, wait) }
            return 0
        }
        return backOff(after: attempt, random: random)
    }
}
