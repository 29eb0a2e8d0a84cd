import Foundation
import TallyLocking

/// Whether the server can take writes now, for `GET /readyz`: judged by the last real write and by a probe
/// write on the store (`CustomerStore.checkWritable()`), so it fails while writes fail (a full disk, a
/// read-only file system) and recovers by itself once they work again.
///
/// - A real write that failed makes the server not ready for at least ``interval``, and until a real write
///   or a probe started after it succeeds.
/// - A probe's verdict is reused for ``interval``; one probe runs at a time, so a flood of `/readyz` costs
///   at most one probe write per interval.
final class Readiness: Sendable {
    /// Why the server is not ready, for the server's log (the client learns only that writes fail).
    struct Failure: Sendable {
        var message: String
    }

    /// Times are the system's uptime in seconds (`ProcessInfo.systemUptime`): monotonic, whatever the wall clock
    /// or a sandbox clock does.
    private struct State {
        /// The last real write's outcome: when it finished and its failure (nil for a success).
        var lastWrite: (at: TimeInterval, failure: Failure?)?
        /// The last probe: when it started and its failure (nil for a success).
        var lastProbe: (started: TimeInterval, failure: Failure?)?
    }

    /// How long, in seconds, a probe's verdict (or a failed write) stands before it is probed again.
    let interval: TimeInterval
    private let state = Locked(State())
    /// Held while a probe runs, so probes do not pile up.
    private let probing = Locked(())

    init(interval: TimeInterval = 1) {
        self.interval = interval
    }

    /// Notes a real write's outcome: nil for a success, else what failed.
    func noteWrite(failure: Failure?) {
        let now = ProcessInfo.processInfo.systemUptime
        state.withLock { $0.lastWrite = (now, failure) }
    }

    /// The verdict now: nil when ready, else the failure; runs `probe` when the last verdict is too old.
    func check(probe: () -> Failure?) -> Failure? {
        if let verdict = standingVerdict(at: ProcessInfo.processInfo.systemUptime) { return verdict.failure }
        return probing.withLock { _ -> Failure? in
            // Another caller may have probed while this one waited.
            if let verdict = standingVerdict(at: ProcessInfo.processInfo.systemUptime) { return verdict.failure }
            let started = ProcessInfo.processInfo.systemUptime
            let failure = probe()
            state.withLock { $0.lastProbe = (started, failure) }
            return failure
        }
    }

    private enum Verdict {
        case ready
        case notReady(Failure)

        var failure: Failure? {
            if case .notReady(let failure) = self { failure } else { nil }
        }
    }

    /// The verdict that stands without a new probe, if any: a write that failed within the interval, or a
    /// probe within the interval that started after the last failed write (a write that succeeded after
    /// the probe makes it ready).
    private func standingVerdict(at now: TimeInterval) -> Verdict? {
        state.withLock { state -> Verdict? in
            let write = state.lastWrite
            if let write, let failure = write.failure, now - write.at < interval { return .notReady(failure) }
            guard let probe = state.lastProbe, now - probe.started < interval else { return nil }
            guard let write else { return probe.failure.map(Verdict.notReady) ?? .ready }
            if write.failure != nil, write.at >= probe.started { return nil }
            if write.failure == nil, write.at > probe.started { return .ready }
            return probe.failure.map(Verdict.notReady) ?? .ready
        }
    }
}
