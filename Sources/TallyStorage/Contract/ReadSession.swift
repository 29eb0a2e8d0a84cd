import TallyCore
import TallyLocking

/// What one request tells a store that reads from replicas (TallyPostgres with `store.replicas`), and what the
/// store tells it back: bound to the request's thread (``current``) while the API answers it.
///
/// - Reads go to a replica only when ``replicaAllowed`` (the API's read routes); every other read, and every read
///   outside a session (background work), goes to the primary.
/// - With ``after`` (the request's `Tally-Read-After`), a replica serves the read only once it has replayed past
///   that position, else the primary does.
/// - A write that committed notes the primary's position after its COMMIT (``noteWritten(_:)``); the answer
///   carries it as `Tally-Read-After`.
/// - The store pins the node it chose for the session's first read (``pinnedNode``), so one answer reads one node.
public final class ReadSession: Sendable {
    /// The session of the request this thread is answering; nil outside one.
    @TaskLocal public static var current: ReadSession?

    /// Whether this request's reads may go to a replica.
    public let replicaAllowed: Bool
    /// The position the request's reads must see (its `Tally-Read-After`).
    public let after: ReadAfter?
    private let state = Locked(State())

    private struct State {
        var written: ReadAfter?
        var pinned: Int?
    }

    /// A session for one request.
    public init(replicaAllowed: Bool, after: ReadAfter?) {
        self.replicaAllowed = replicaAllowed
        self.after = after
    }

    /// The furthest primary position a write of this request reached; nil when none wrote (or the store does not
    /// read from replicas).
    public var written: ReadAfter? { state.withLock { $0.written } }

    /// Notes that a write of this request committed with the primary at `position`.
    public func noteWritten(_ position: ReadAfter) {
        state.withLock { $0.written = max($0.written ?? position, position) }
    }

    /// The node (a store's own numbering) the session's reads go to, once chosen.
    public var pinnedNode: Int? {
        get { state.withLock { $0.pinned } }
        set { state.withLock { $0.pinned = newValue } }
    }
}

/// A store that sends reads to replicas, for `/metrics` and `/readyz`.
public protocol ReplicaReporting: Sendable {
    /// Each replica's standing now, and how many reads each node served; nil when the store has no replicas.
    func replicaReport() -> ReplicaReport?
}

/// How the reads of a store with replicas went (``ReplicaReporting``).
public struct ReplicaReport: Sendable, Hashable {
    /// One replica's standing.
    public struct Replica: Sendable, Hashable {
        /// Why a replica is or is not serving reads.
        public enum Status: String, Sendable, Hashable, CaseIterable {
            /// Serving reads.
            case up
            /// Skipped: it lags past `store.maxReplicaLagSeconds`.
            case lagging
            /// Skipped: its replay is paused (`pg_wal_replay_pause()`).
            case paused
            /// Skipped: it cannot be reached.
            case down
            /// Skipped: the database is not a standby (`pg_is_in_recovery()` is false).
            case notStandby = "not_standby"
            /// Not probed yet: the primary serves reads until it is.
            case unknown
        }

        /// Its place in `store.replicas` (from 0); never its URL, which may hold a password.
        public var index: Int
        public var status: Status
        /// How far behind the primary it was at the last probe, in seconds; nil when unknown.
        public var lagSeconds: Double?
        /// Reads it served.
        public var reads: Int

        /// A replica's standing.
        public init(index: Int, status: Status, lagSeconds: Double?, reads: Int) {
            self.index = index
            self.status = status
            self.lagSeconds = lagSeconds
            self.reads = reads
        }
    }

    /// Reads the primary served.
    public var primaryReads: Int
    /// Requests whose reads could have gone to a replica but went to the primary because none had replayed the
    /// request's `Tally-Read-After` (or none was up, or the replica failed the read).
    public var fallbacks: Int
    /// The replicas, in `store.replicas` order.
    public var replicas: [Replica]

    /// A report.
    public init(primaryReads: Int, fallbacks: Int, replicas: [Replica]) {
        self.primaryReads = primaryReads
        self.fallbacks = fallbacks
        self.replicas = replicas
    }
}
