/// Where customers are kept (the `store` object of `tally-server.json`): SQLite in `--data` (the default), or
/// PostgreSQL, which several `tally serve` processes may share.
public struct StoreSettings: Sendable, Hashable {
    /// The database behind the API.
    public enum Kind: Sendable, Hashable {
        /// `DIR/tally.sqlite` in the `--data` directory.
        case sqlite
        /// A PostgreSQL database: its libpq URL (`postgresql://…`) and the most connections one server opens.
        case postgres(url: String, poolSize: Int)
    }

    /// The default pool size of a PostgreSQL store.
    public static let defaultPoolSize = 8
    /// The default of ``maxReplicaLagSeconds``.
    public static let defaultMaxReplicaLagSeconds: Double = 10
    /// The most entries `store.replicas` may list.
    public static let maximumReplicas = 16

    /// The database.
    public var kind: Kind
    /// How long a state read from the store may be served from this server's memory, in seconds (0: never
    /// cached). Every write through this server invalidates it; writes through another server sharing the
    /// database do not, so with several servers this bounds how stale a `GET` may be.
    public var cacheSeconds: Int
    /// PostgreSQL streaming replicas of the primary (`store.replicas`, libpq URLs) that serve the read routes; a
    /// read after a write (`Tally-Read-After`) is served by one only once it has replayed that write.
    public var replicas: [String]
    /// How far behind the primary a replica may be, in seconds, and still serve reads without `Tally-Read-After`
    /// (`store.maxReplicaLagSeconds`); a replica further behind, paused or down is skipped.
    public var maxReplicaLagSeconds: Double
    /// Whether the PostgreSQL store prepares each statement once per connection under a name
    /// (`store.preparedStatements`, default true); false sends each unnamed with its values, which a pooler in
    /// transaction mode without prepared-statement support (PgBouncer before 1.21) can carry.
    public var preparedStatements = true

    /// Creates settings: SQLite with a cache of up to 300 s by default, PostgreSQL with no cache.
    public init(kind: Kind = .sqlite, cacheSeconds: Int? = nil, replicas: [String] = [],
                maxReplicaLagSeconds: Double = StoreSettings.defaultMaxReplicaLagSeconds) {
        self.kind = kind
        self.replicas = replicas
        self.maxReplicaLagSeconds = maxReplicaLagSeconds
        if let cacheSeconds {
            self.cacheSeconds = cacheSeconds
        } else if case .sqlite = kind {
            self.cacheSeconds = 300
        } else {
            self.cacheSeconds = 0
        }
    }
}
