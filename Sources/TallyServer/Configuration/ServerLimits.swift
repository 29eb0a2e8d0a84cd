/// Request limits and the rates of keys and addresses.
public struct ServerLimits: Sendable, Hashable {
    /// Requests per second a secret key, or a public key for one customer id, may make on average.
    public var requestsPerSecond: Double
    /// Requests a secret key, or a public key for one customer id, may make at once after being idle.
    public var burst: Int
    /// Requests per second one public key may make on average over all customer ids (its ceiling).
    public var publicKeyRequestsPerSecond: Double = 1_000
    /// Requests one public key may make at once over all customer ids.
    public var publicKeyBurst = 2_000
    /// Requests per second one client address may make on average with no key or an unknown key.
    public var unknownKeyRequestsPerSecond: Double = 5
    /// Requests one client address may make at once with no key or an unknown key.
    public var unknownKeyBurst = 20
    /// Largest body accepted, in bytes; larger bodies get 413.
    public var maxBodyBytes: Int
    /// Deepest JSON nesting accepted; deeper bodies get 400.
    public var maxJSONDepth: Int
    /// Most JSON values (strings, numbers, literals, arrays, objects) a body may hold; more get 400.
    public var maxJSONElements = 1_000

    /// Creates limits; the defaults are those of docs/server.md.
    public init(requestsPerSecond: Double = 20, burst: Int = 40, maxBodyBytes: Int = 1_048_576,
                maxJSONDepth: Int = 32) {
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst
        self.maxBodyBytes = maxBodyBytes
        self.maxJSONDepth = maxJSONDepth
    }
}
