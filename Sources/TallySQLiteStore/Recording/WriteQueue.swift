import CSQLite
import Foundation
import TallySQLite
import TallyStorage

/// The store's single write connection, shared by group commit: writes that arrive while a COMMIT is in
/// progress wait in a queue; the next leader runs them all in one transaction, each in its own savepoint,
/// and one COMMIT (one fsync under `synchronous=FULL`) makes them durable together.
///
/// A caller with no company leads a group of one (no savepoint: `BEGIN IMMEDIATE`, its body, `COMMIT`).
/// Each write stays all-or-nothing; a body's error undoes only its own savepoint; a failed COMMIT fails every
/// write of its group. A write returns only after the COMMIT that holds it is durable. A waiting caller is
/// woken only for its own write: when it is finished, or when it becomes the next leader.
///
/// `@unchecked Sendable`: `pending`, `leading`, `commits` and `hooks` are read and written only while
/// holding `lock`. `connection` is private and used only by the leader, and there is one leader at a time:
/// a caller leads after it set `leading` from false to true under the lock, or after the previous leader,
/// still holding `leading`, handed it over under the lock (``GroupedWrite/wake()``); it gives `leading` up
/// under the lock. The lock (and the semaphore of the hand-over) orders each leader after the previous one.
final class WriteQueue: @unchecked Sendable {
    /// The most writes one transaction takes; the rest wait for the next group.
    static let maximumGroupSize = 64

    private let connection: SQLiteConnection
    private let lock = NSLock()
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
        lock.withLock { self.hooks = hooks }
    }

    /// COMMITs that succeeded so far (a diagnostic: under contention it grows slower than the writes).
    var commitCount: Int {
        lock.withLock { commits }
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

    /// Queues `write` and returns when it is finished, leading groups when no one else does.
    private func submit(_ write: any GroupedWrite) {
        lock.lock()
        pending.append(write)
        hooks.enqueued?(pending.count)
        if leading {
            lock.unlock()
            write.waitForTurn()  // finished, or handed the lead (`leading` stays true for it)
            lock.lock()
            guard !write.isFinished else { return lock.unlock() }
        } else {
            leading = true
        }
        lead(until: write)
        lock.unlock()
    }

    /// Runs groups until `write` is finished, then hands the lead to the first write still queued.
    /// Called and returns under the lock, with `leading` set for this thread.
    private func lead(until write: any GroupedWrite) {
        while !write.isFinished {
            let group = Array(pending.prefix(Self.maximumGroupSize))
            pending.removeFirst(group.count)
            guard !group.isEmpty else {  // unreachable: `write` stays queued until it is finished
                write.finish(SQLiteError(code: SQLITE_MISUSE, "internal error: a write left the queue unfinished"))
                break
            }
            let hooks = self.hooks
            lock.unlock()
            let outcomes = GroupCommit(connection: connection, hooks: hooks).run(group)
            lock.lock()
            finish(group, outcomes, leader: write)
        }
        if let next = pending.first {
            next.wake()
        } else {
            leading = false
        }
    }

    /// Hands each member of `group` its outcome and wakes it (the leader's own write needs no waking);
    /// writes to retry go back to the front of the queue, in order, still waiting. Called under the lock.
    private func finish(_ group: [any GroupedWrite], _ outcomes: GroupCommit.Outcomes, leader: any GroupedWrite) {
        if outcomes.committed { commits += 1 }
        var retry: [any GroupedWrite] = []
        for (member, outcome) in zip(group, outcomes.members) {
            switch outcome {
            case .committed: member.finish(nil)
            case .failed(let error): member.finish(error)
            case .retry:
                retry.append(member)
                continue
            }
            if member !== leader { member.wake() }
        }
        pending.insert(contentsOf: retry, at: 0)
    }
}
