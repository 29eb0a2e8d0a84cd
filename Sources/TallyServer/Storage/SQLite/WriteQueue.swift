import Foundation

/// The store's single write connection, shared by group commit: writes that arrive while a COMMIT is in
/// progress wait in a queue; the next leader runs them all in one transaction, each in its own savepoint,
/// and one COMMIT (one fsync under `synchronous=FULL`) makes them durable together.
///
/// A caller with no company leads a group of one (no savepoint: `BEGIN IMMEDIATE`, its body, `COMMIT`).
/// Each write stays all-or-nothing; a body's error undoes only its own savepoint; a failed COMMIT fails every
/// write of its group. A write returns only after the COMMIT that holds it is durable.
///
/// `@unchecked Sendable`: `pending`, `leading`, `commits` and `hooks` are read and written only while
/// holding `condition`'s lock. `connection` is used only by the leader: the thread that set `leading` from
/// false to true under the lock, until it sets it back under the lock, so no two threads use it at once and
/// each leader sees the previous one's effects. `connection` itself never leaves this type.
/// (`Mutex` needs macOS 15; the package supports macOS 14, so this uses `NSCondition`.)
final class WriteQueue: @unchecked Sendable {
    /// The most writes one transaction takes; the rest wait for the next group.
    static let maximumGroupSize = 64

    let connection: SQLiteConnection
    private let condition = NSCondition()
    private var pending: [any GroupedWrite] = []
    private var leading = false
    private var commits = 0
    private var hooks = Hooks()

    /// Takes ownership of `connection`; nothing else may keep a reference to it.
    init(_ connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Replaces the test hooks; the next group uses them.
    func setHooks(_ hooks: Hooks) {
        condition.lock()
        defer { condition.unlock() }
        self.hooks = hooks
    }

    /// COMMITs that succeeded so far (a diagnostic: under contention it grows slower than the writes).
    var commitCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return commits
    }

    /// Runs `body` in a write transaction (shared with the writes queued beside it) and returns its value once
    /// that transaction is committed. `body` may run more than once, on another thread, while this call waits:
    /// when another write's failure makes SQLite roll back the whole transaction, the writes that already ran
    /// in it run again in a new one. It must have no effects outside the connection.
    func perform<T: Sendable>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try withoutActuallyEscaping(body) { (escapable) throws(SQLiteError) -> T in
            let write = QueuedWrite(escapable)
            submit(write)
            return try write.get()
        }
    }

    /// Queues `write` and returns when it is finished, leading groups while no one else does.
    private func submit(_ write: any GroupedWrite) {
        condition.lock()
        defer { condition.unlock() }
        pending.append(write)
        hooks.enqueued?(pending.count)
        while leading && !write.isFinished {
            condition.wait()
        }
        guard !write.isFinished else { return }
        leading = true
        while !write.isFinished {
            let group = Array(pending.prefix(Self.maximumGroupSize))
            pending.removeFirst(group.count)
            guard !group.isEmpty else { break }  // unreachable: `write` is queued until finished
            let hooks = self.hooks
            condition.unlock()
            let outcomes = GroupCommit(connection: connection, hooks: hooks).run(group)
            condition.lock()
            finish(group, outcomes)
            if write.isFinished { leading = false }
            condition.broadcast()
        }
        leading = false
    }

    /// Hands each member of `group` its outcome; writes to retry go back to the front of the queue, in order.
    /// Called under the lock.
    private func finish(_ group: [any GroupedWrite], _ outcomes: GroupCommit.Outcomes) {
        if outcomes.committed { commits += 1 }
        var retry: [any GroupedWrite] = []
        for (member, outcome) in zip(group, outcomes.members) {
            switch outcome {
            case .committed: member.finish(nil)
            case .failed(let error): member.finish(error)
            case .retry: retry.append(member)
            }
        }
        pending.insert(contentsOf: retry, at: 0)
    }
}
