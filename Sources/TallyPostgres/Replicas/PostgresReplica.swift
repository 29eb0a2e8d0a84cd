import Foundation
import TallyLocking
import TallyStorage

/// One streaming replica of the primary (an entry of `store.replicas`): a pool for the reads it serves, a
/// connection of its own for probes, and what the last probe and reads found.
final class PostgresReplica: Sendable {
    /// Its place in `store.replicas`.
    let index: Int
    /// The connections reads use.
    let pool: PostgresConnectionPool
    /// The one connection probes use, so a probe never waits behind reads (nor reads behind a probe).
    let probePool: PostgresConnectionPool
    /// Kept-state reads on this replica sharing statements (``StateReadBatch``), as the primary's do.
    let stateReads = StateReadBatch()
    private let standing = Locked(Standing())

    /// What is known of the replica now.
    struct Standing: Sendable {
        var status: ReplicaReport.Replica.Status = .unknown
        /// The furthest position it was seen to have replayed since it was last found up (a restart forgets it).
        var replayed: UInt64?
        var lagSeconds: Double?
        var reads = 0
    }

    init(index: Int, url: String, poolSize: Int, connectTimeoutSeconds: Int, namedStatements: Bool) {
        self.index = index
        pool = PostgresConnectionPool(url: url, size: poolSize, connectTimeoutSeconds: connectTimeoutSeconds,
                                      namedStatements: namedStatements)
        probePool = PostgresConnectionPool(url: url, size: 1, connectTimeoutSeconds: connectTimeoutSeconds,
                                           namedStatements: namedStatements)
    }

    /// The standing now.
    var now: Standing { standing.withLock { $0 } }

    /// Whether reads may go to it now.
    var isUp: Bool { standing.withLock { $0.status == .up } }

    /// Whether it is known to have replayed `position`.
    func hasReplayed(_ position: UInt64) -> Bool {
        standing.withLock { ($0.replayed ?? 0) >= position }
    }

    /// Notes a replay position a read saw.
    func noteReplayed(_ position: UInt64) {
        standing.withLock { $0.replayed = max($0.replayed ?? 0, position) }
    }

    /// Counts a read it served.
    func countRead() {
        standing.withLock { $0.reads += 1 }
    }

    /// Notes that a read found it unreachable: skipped until a probe finds it again.
    func markDown() {
        standing.withLock {
            $0.status = .down
            $0.replayed = nil
            $0.lagSeconds = nil
        }
    }

    /// Notes what a probe found.
    func note(status: ReplicaReport.Replica.Status, replayed: UInt64?, lagSeconds: Double?) {
        standing.withLock {
            let wasUp = $0.status == .up || $0.status == .lagging || $0.status == .paused
            $0.status = status
            $0.lagSeconds = lagSeconds
            // A replica that was unreachable may have restarted from an earlier restart point: forget what it had.
            if let replayed { $0.replayed = wasUp ? max($0.replayed ?? 0, replayed) : replayed } else { $0.replayed = nil }
        }
    }
}
