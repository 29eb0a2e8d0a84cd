/// Bounded exponential back-off for posts the server could not take (unreachable, 5xx, 429): the first retry
/// waits ``initialDelay``, each next one twice as long, never longer than ``maxDelay``; retries go on while the
/// store is open and at every launch, so nothing unposted is ever dropped.
public struct RetryPolicy: Sendable {
    /// The wait before the first retry.
    public var initialDelay: Duration
    /// The longest wait between two retries.
    public var maxDelay: Duration
    /// Waits; `Task.sleep` by default. Tests inject one that records the delays.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Creates a policy: 1 s doubling up to 5 min by default.
    public init(initialDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(300),
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.initialDelay = initialDelay
        self.maxDelay = max(maxDelay, initialDelay)
        self.sleep = sleep
    }

    /// The wait before retry number `attempt` (0 for the first).
    public func delay(attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 0..<min(attempt, 62) {
            delay *= 2
            if delay >= maxDelay { return maxDelay }
        }
        return min(delay, maxDelay)
    }
}
