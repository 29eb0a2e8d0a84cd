/// Request, connection and rate limits (the `limits` and `rateLimit` objects of `tally-server.json`), and the
/// rates of keys and addresses.
public struct ServerLimits: Sendable, Hashable {
    /// Requests per second a secret key, or a public key for one customer id from one client address, may make on
    /// average.
    public var requestsPerSecond: Double
    /// Requests a secret key, or a public key for one customer id, may make at once after being idle.
    public var burst: Int
    /// Requests per second one public key may make on average over all customer ids (its ceiling).
    public var publicKeyRequestsPerSecond: Double = 1_000
    /// Requests one public key may make at once over all customer ids.
    public var publicKeyBurst = 2_000
    /// Requests per second one client address (an IPv6 /64) may make on average with a public key, over all
    /// customer ids: its share of the ceiling, so one address cannot empty it for every other install.
    public var publicKeyPerAddressRequestsPerSecond: Double = 100
    /// Requests one client address (an IPv6 /64) may make at once with a public key.
    public var publicKeyPerAddressBurst = 200
    /// Requests per second one client address may make on average with no key or an unknown key.
    public var unknownKeyRequestsPerSecond: Double = 5
    /// Requests one client address may make at once with no key or an unknown key.
    public var unknownKeyBurst = 20
    /// Refused notification bodies (malformed or not signed by Apple) one client address may send per second
    /// on average; past them the notification route answers 429 before verifying anything.
    public var unverifiedNotificationsPerSecond: Double = 5
    /// Refused notification bodies one client address may send at once.
    public var unverifiedNotificationBurst = 50
    /// Largest body accepted on any route, in bytes (the receipts route's limit); larger bodies get 413.
    public var maxBodyBytes: Int
    /// Deepest JSON nesting accepted; deeper bodies get 400.
    public var maxJSONDepth: Int
    /// Most JSON values (strings, numbers, literals, arrays, objects) a body may hold; more get 400.
    public var maxJSONElements = 1_000
    /// Largest body of `POST …/transactions` (one signed transaction: a few KB), at most ``maxBodyBytes``.
    public var maxTransactionBodyBytes: Int
    /// Largest body of `POST …/spend` (an amount and an id of at most 256 bytes), at most ``maxBodyBytes``.
    public var maxSpendBodyBytes: Int
    /// The most connections open at once; further ones are closed as soon as they are accepted.
    public var maxConnections: Int
    /// The most connections open at once from one IPv4 address or one IPv6 /64 (0: no such limit).
    public var maxConnectionsPerIP: Int
    /// Seconds a connection may stay silent (no byte received or sent) before it is closed.
    public var idleTimeoutSeconds: Int
    /// Seconds a request's head may take to arrive (from the connection's start, or from the idle timeout after
    /// the previous request on it); a connection past it is closed, however it drips bytes.
    public var headTimeoutSeconds = 10
    /// Seconds a stop (SIGTERM, SIGINT) waits for the requests in flight to finish before closing connections.
    public var shutdownGraceSeconds: Int
    /// The most `POST …/reconcile` running at once (each waits on Apple's API); further ones get 503 with
    /// `Retry-After`.
    public var maxConcurrentReconciles = 4

    /// Creates limits; the defaults are those of docs/server.md.
    public init(requestsPerSecond: Double = 20, burst: Int = 40, maxBodyBytes: Int = 1_048_576,
                maxJSONDepth: Int = 32, maxTransactionBodyBytes: Int = 65_536, maxSpendBodyBytes: Int = 16_384,
                maxConnections: Int = 1_000, maxConnectionsPerIP: Int = 100, idleTimeoutSeconds: Int = 30,
                shutdownGraceSeconds: Int = 30) {
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst
        self.maxBodyBytes = maxBodyBytes
        self.maxJSONDepth = maxJSONDepth
        self.maxTransactionBodyBytes = maxTransactionBodyBytes
        self.maxSpendBodyBytes = maxSpendBodyBytes
        self.maxConnections = maxConnections
        self.maxConnectionsPerIP = maxConnectionsPerIP
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.shutdownGraceSeconds = shutdownGraceSeconds
    }
}
