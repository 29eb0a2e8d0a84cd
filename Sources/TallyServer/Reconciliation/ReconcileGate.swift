import TallyLocking

/// How many reconciliations `POST …/reconcile` runs at once (`limits.maxConcurrentReconciles`): each one waits on
/// Apple's API (30 s timeouts, retries), so past the limit a request is refused at once instead of holding a thread.
/// ``EntitlementServer`` gives the blocking pool this many threads beyond `writeThreads`, so reconciliations that
/// hang never take a thread a write needs.
final class ReconcileGate: Sendable {
    /// The most reconciliations running at once.
    let limit: Int
    private let running = Locked(0)

    /// A gate admitting `limit` reconciliations at once (at least one).
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` when fewer than ``limit`` reconciliations run; nil, without running it, otherwise.
    func run<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result? {
        let admitted = running.withLock { (count: inout Int) -> Bool in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else { return nil }
        defer { running.withLock { $0 -= 1 } }
        return try body()
    }
}
