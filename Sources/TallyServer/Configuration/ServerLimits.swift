/// Request limits and the per-key rate.
public struct ServerLimits: Sendable, Hashable {
    /// Requests per second each key may make on average.
    public var requestsPerSecond: Double
    /// Requests a key may make at once after being idle.
    public var burst: Int
    /// Largest body accepted, in bytes; larger bodies get 413.
    public var maxBodyBytes: Int
    /// Deepest JSON nesting accepted; deeper bodies get 400.
    public var maxJSONDepth: Int

    /// Creates limits; the defaults are those of docs/server.md.
    public init(requestsPerSecond: Double = 20, burst: Int = 40, maxBodyBytes: Int = 1_048_576,
                maxJSONDepth: Int = 32) {
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst
        self.maxBodyBytes = maxBodyBytes
        self.maxJSONDepth = maxJSONDepth
    }
}
