import Foundation

/// Bounded exponential back-off for posts the server could not take (unreachable, 5xx, 429): the first retry
/// waits ``initialDelay``, each next one twice as long, never longer than ``maxDelay``; retries go on while the
/// store is open and at every launch, so nothing unposted is ever dropped.
public struct RetryPolicy: Sendable {
    /// The wait before the first retry, in seconds.
    public var initialDelay: TimeInterval
    /// The longest wait between two retries, in seconds.
    public var maxDelay: TimeInterval
    /// Waits that many seconds; `Task.sleep(nanoseconds:)` by default. Tests inject one that records the delays.
    public var sleep: @Sendable (TimeInterval) async throws -> Void

    /// Creates a policy: 1 s doubling up to 5 min by default. Seconds, not `Duration`: the engine runs on
    /// iOS 15 / macOS 12, where `Duration` does not exist.
    public init(initialDelay: TimeInterval = 1, maxDelay: TimeInterval = 300,
                sleep: @escaping @Sendable (TimeInterval) async throws -> Void = RetryPolicy.taskSleep) {
        self.initialDelay = initialDelay
        self.maxDelay = max(maxDelay, initialDelay)
        self.sleep = sleep
    }

    /// The wait before retry number `attempt` (0 for the first).
    public func delay(attempt: Int) -> TimeInterval {
        var delay = initialDelay
        for _ in 0..<min(attempt, 62) {
            delay *= 2
            if delay >= maxDelay { return maxDelay }
        }
        return min(delay, maxDelay)
    }

    /// `Task.sleep` for `seconds` (a negative or NaN wait is none; one past `UInt64`'s nanoseconds waits that long).
    public static let taskSleep: @Sendable (TimeInterval) async throws -> Void = { seconds in
        let nanoseconds = seconds * 1e9
        guard nanoseconds > 0 else { return }
        try await Task.sleep(nanoseconds: nanoseconds >= 1.8e19 ? UInt64.max : UInt64(nanoseconds))
    }
}
