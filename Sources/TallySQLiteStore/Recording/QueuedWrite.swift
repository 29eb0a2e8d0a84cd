import CSQLite
import Dispatch
import TallySQLite
import TallyStorage

/// One caller's write as the leader of a ``WriteQueue`` group sees it, whatever its result type.
protocol GroupedWrite: AnyObject, Sendable {
    /// Runs the caller's body on `connection`, inside the group's transaction, and keeps its value until
    /// ``finish(_:)``. Called only by the leader.
    func run(on connection: SQLiteConnection) throws(SQLiteError)
    /// Ends the write: its kept value stands (nil) or `error` is its result. Called under the queue's lock.
    func finish(_ error: SQLiteError?)
    /// Whether ``finish(_:)`` has been called. Read under the queue's lock.
    var isFinished: Bool { get }
    /// Blocks the caller's thread until ``wake()`` (called once per turn: finished, or handed the lead).
    func waitForTurn()
    /// Wakes the thread blocked in (or about to call) ``waitForTurn()``.
    func wake()
}

/// A write body waiting in a ``WriteQueue``, and its result once the group's COMMIT has finished.
///
/// `@unchecked Sendable`: the caller creates it and enqueues it under the queue's lock, then only waits on
/// `turn` (or leads) until it reads `isFinished == true` under that lock. Meanwhile `body` and `value`
/// are touched by exactly one thread, the group's leader (one at a time: the queue's `leading` flag, taken,
/// handed over and given up under its lock), which calls ``finish(_:)`` under the lock. Every hand-over (enqueue → leader, leader →
/// next leader after a retry, leader → caller) passes through the queue's lock, which orders the accesses.
/// The body is not `Sendable`, but it runs while its caller is blocked, so what it captured is never used by
/// two threads at once; `Value` is `Sendable`, so the result may cross to the caller's thread.
final class QueuedWrite<Value: Sendable>: GroupedWrite, @unchecked Sendable {
    private var body: ((SQLiteConnection) throws(SQLiteError) -> Value)?
    private var value: Value?
    private var result: Result<Value, SQLiteError>?
    private let turn = DispatchSemaphore(value: 0)

    /// Wraps `body`; ``finish(_:)`` drops it, so it does not outlive the caller's `withoutActuallyEscaping`.
    init(_ body: @escaping (SQLiteConnection) throws(SQLiteError) -> Value) {
        self.body = body
    }

    func run(on connection: SQLiteConnection) throws(SQLiteError) {
        value = nil
        guard let body else { return }
        value = try body(connection)
    }

    func finish(_ error: SQLiteError?) {
        if let error {
            result = .failure(error)
        } else if let value {
            result = .success(value)
        } else {
            result = .failure(SQLiteError(code: SQLITE_ERROR, "internal error: a grouped write ended without running"))
        }
        body = nil
        value = nil
    }

    var isFinished: Bool { result != nil }

    func waitForTurn() { turn.wait() }

    func wake() { turn.signal() }

    /// The result, once finished (read by the caller after it saw ``isFinished`` under the queue's lock).
    func get() throws(SQLiteError) -> Value {
        guard let result else {
            throw SQLiteError(code: SQLITE_ERROR, "internal error: a grouped write was read before it finished")
        }
        return try result.get()
    }
}
