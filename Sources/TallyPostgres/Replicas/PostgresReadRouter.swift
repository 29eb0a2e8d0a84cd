import Dispatch
import Foundation
import TallyCore
import TallyLocking
import TallyStorage

/// Where a PostgreSQL store's reads go when it has replicas (`store.replicas`), and what it knows of them.
///
/// - A read goes to a replica only inside a ``TallyStorage/ReadSession`` that allows it (the API's read routes);
///   all else reads the primary.
/// - The replicas are probed at most every ``probeInterval``, on a background queue (no read waits for a probe):
///   the primary's log position and each replica's replay position and pause. A replica is ``up`` when it is a
///   standby, not paused, and has replayed what the primary had ``maxLagSeconds`` ago; otherwise it is skipped.
/// - A read with `Tally-Read-After` goes to a replica known to have replayed that position, or asks the replica
///   on the read's own connection first (`pg_last_wal_replay_lsn()`); one behind goes to the primary.
/// - Any failure on a replica (it went down, a query cancelled by replay) sends the read to the primary: a replica
///   never fails a request.
final class PostgresReadRouter: Sendable {
    /// The most often the replicas are probed.
    static let probeInterval: TimeInterval = 0.25

    let replicas: [PostgresReplica]
    /// How far behind the primary, in seconds, a replica may be and still serve reads (`store.maxReplicaLagSeconds`).
    let maxLagSeconds: Double
    private let primaryProbe: PostgresConnectionPool
    private let uptime: @Sendable () -> TimeInterval
    private let state = Locked(State())

    private struct State {
        /// The primary's log positions at the probes, oldest first.
        var samples: [(time: TimeInterval, position: UInt64)] = []
        var lastProbe: TimeInterval = -.infinity
        var probing = false
        var primaryReads = 0
        var fallbacks = 0
        var next = 0
    }

    init(primaryURL: String, replicaURLs: [String], poolSize: Int, maxLagSeconds: Double, connectTimeoutSeconds: Int,
         namedStatements: Bool = true, uptime: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }) {
        replicas = replicaURLs.enumerated().map {
            PostgresReplica(index: $0.offset, url: $0.element, poolSize: poolSize,
                            connectTimeoutSeconds: connectTimeoutSeconds, namedStatements: namedStatements)
        }
        self.maxLagSeconds = maxLagSeconds
        self.uptime = uptime
        primaryProbe = PostgresConnectionPool(url: primaryURL, size: 1, connectTimeoutSeconds: connectTimeoutSeconds,
                                              namedStatements: namedStatements)
    }

    /// Runs `body` on a replica when `session` allows it and one can serve it; nil when the primary must.
    func read<T>(_ session: ReadSession, _ body: (PostgresConnection) throws(PostgresError) -> T) -> T? {
        probeIfDue()
        guard let replica = choose(session) else {
            // Counted once per session: its later reads follow the pin without a choice.
            if session.pinnedNode == nil {
                session.pinnedNode = Self.primaryNode
                state.withLock { $0.fallbacks += 1 }
            }
            return nil
        }
        do throws(PostgresError) {
            let value = try replica.pool.withConnection { (connection) throws(PostgresError) -> T? in
                if let after = session.after, !replica.hasReplayed(after.position) {
                    guard let replayed = try connection.replayPosition() else { return nil }
                    replica.noteReplayed(replayed)
                    guard replayed >= after.position else { return nil }
                }
                return try body(connection)
            }
            guard let value else {
                session.pinnedNode = Self.primaryNode
                state.withLock { $0.fallbacks += 1 }
                return nil
            }
            session.pinnedNode = replica.index
            replica.countRead()
            return value
        } catch {
            if error.connectionLost { replica.markDown() }
            session.pinnedNode = Self.primaryNode
            state.withLock { $0.fallbacks += 1 }
            return nil
        }
    }

    /// The replica a batched read of `session` may join (``StateReadBatch``): one that is up and known to have
    /// replayed the session's `Tally-Read-After`, so every reader in its batch may be answered by it; the session is
    /// pinned to it. Nil: read unbatched (``read(_:_:)``), which asks the replica or goes to the primary.
    func replicaForBatch(_ session: ReadSession) -> PostgresReplica? {
        probeIfDue()
        guard let replica = choose(session) else { return nil }
        if let after = session.after, !replica.hasReplayed(after.position) { return nil }
        session.pinnedNode = replica.index
        return replica
    }

    /// Runs one batch's statement on `replica`, counted as its read; nil when the replica failed it (the caller
    /// reads the primary; a broken connection marks the replica down).
    func run<T>(on replica: PostgresReplica, _ body: (PostgresConnection) throws(PostgresError) -> T) -> T? {
        do throws(PostgresError) {
            let value = try replica.pool.withConnection(body)
            replica.countRead()
            return value
        } catch {
            if error.connectionLost { replica.markDown() }
            state.withLock { $0.fallbacks += 1 }
            return nil
        }
    }

    /// Counts a read the primary served.
    func countPrimaryRead() {
        state.withLock { $0.primaryReads += 1 }
    }

    /// The session's pin for the primary.
    static let primaryNode = -1

    /// The replica for the session's read: the one it read before, else the next up (round robin); nil: the primary.
    private func choose(_ session: ReadSession) -> PostgresReplica? {
        if let pinned = session.pinnedNode {
            guard pinned >= 0, pinned < replicas.count, replicas[pinned].isUp else { return nil }
            return replicas[pinned]
        }
        let start = state.withLock { state -> Int in
            state.next &+= 1
            return state.next
        }
        for offset in 0..<replicas.count {
            let replica = replicas[(start &+ offset) % replicas.count]
            if replica.isUp { return replica }
        }
        return nil
    }

    /// The standing of every replica and the reads each node served (probing first when a probe is due).
    func report() -> ReplicaReport {
        probeIfDue()
        let (primaryReads, fallbacks) = state.withLock { ($0.primaryReads, $0.fallbacks) }
        return ReplicaReport(primaryReads: primaryReads, fallbacks: fallbacks, replicas: replicas.map { replica in
            let now = replica.now
            return ReplicaReport.Replica(index: replica.index, status: now.status, lagSeconds: now.lagSeconds,
                                         reads: now.reads)
        })
    }

    /// Starts a probe on a background queue when none runs and the last is older than ``probeInterval``.
    func probeIfDue() {
        let now = uptime()
        let due = state.withLock { state -> Bool in
            guard !state.probing, now - state.lastProbe >= Self.probeInterval else { return false }
            state.probing = true
            state.lastProbe = now
            return true
        }
        guard due else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            probe()
            state.withLock { $0.probing = false }
        }
    }

    /// Probes now, on this thread: the primary's position, then each replica (for tests and the first read).
    func probe() {
        let primary = try? primaryProbe.withConnection { (connection) throws(PostgresError) in
            try connection.walInsertPosition()
        }
        let now = uptime()
        let samples = state.withLock { state -> [(time: TimeInterval, position: UInt64)] in
            if let primary { state.samples.append((now, primary)) }
            // Kept long enough to tell a lag past the bound; the newest always.
            let horizon = now - maxLagSeconds * 2 - 1
            if let keep = state.samples.lastIndex(where: { $0.time < horizon }), keep < state.samples.count - 1 {
                state.samples.removeFirst(keep + 1)
            }
            return state.samples
        }
        for replica in replicas {
            let standing: (replayed: UInt64?, paused: Bool)
            do throws(PostgresError) {
                standing = try replica.probePool.withConnection { (connection) throws(PostgresError) in
                    try connection.replayStanding()
                }
            } catch {
                replica.note(status: .down, replayed: nil, lagSeconds: nil)
                continue
            }
            guard let replayed = standing.replayed else {
                replica.note(status: .notStandby, replayed: nil, lagSeconds: nil)
                continue
            }
            let lag = Self.lag(replayed: replayed, samples: samples, now: now)
            let status: ReplicaReport.Replica.Status
            if standing.paused {
                status = .paused
            } else if let lag, lag <= maxLagSeconds {
                status = .up
            } else {
                status = .lagging
            }
            replica.note(status: status, replayed: replayed, lagSeconds: lag)
        }
    }

    /// How long ago the primary first had log the replica has not replayed: 0 when it has replayed the newest
    /// sample; at least the age of the oldest sample when it is behind even that; nil when the primary was never
    /// sampled.
    static func lag(replayed: UInt64, samples: [(time: TimeInterval, position: UInt64)], now: TimeInterval) -> Double? {
        guard let newest = samples.last else { return nil }
        if replayed >= newest.position { return 0 }
        guard let first = samples.first(where: { $0.position > replayed }) else { return 0 }
        return max(0, now - first.time)
    }
}
