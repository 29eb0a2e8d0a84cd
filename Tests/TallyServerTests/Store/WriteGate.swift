import Foundation
import TallySQLite
@testable import TallySQLiteStore
@testable import TallyServer
@testable import TallyStorage

/// Makes a commit group deterministic without sleeps: a first write (the gate, which bumps customer "gate")
/// holds the store's write leader inside its body while other writes queue behind it one by one, in order
/// (the queue's `enqueued` hook says when each is queued); ``open()`` lets the gate commit alone, and the
/// next leader takes everything queued as one group.
final class WriteGate: Sendable {
    let store: SQLiteCustomerStore
    /// Each queued write's name and its error reason (nil: it succeeded).
    let results = WriteResults()
    private let entered = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    private let queued = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()

    /// Starts the gate's write and returns once the leader is inside it. Call from a thread of its own.
    init(store: SQLiteCustomerStore, beforeCommit: (@Sendable (Int) throws(SQLiteError) -> Void)? = nil) {
        self.store = store
        store.writes.setHooks(WriteQueue.Hooks(enqueued: { [queued] _ in queued.signal() }, beforeCommit: beforeCommit))
        start("gate") { [entered, release] in
            try store.write { (connection) throws(SQLiteError) in
                entered.signal()
                release.wait()
                try connection.bumpVersion(of: "gate")
            }
        }
        entered.wait()
    }

    /// Starts `write` on a thread of its own and returns once it is queued behind the gate.
    func start(_ name: String, _ write: @escaping @Sendable () throws -> Void) {
        finished.enter()
        Thread { [results, finished] in
            do {
                try write()
                results.add(name, nil)
            } catch let error as CustomerStoreError {
                results.add(name, error.reason)
            } catch {
                results.add(name, .unavailable)
            }
            finished.leave()
        }.start()
        queued.wait()
    }

    /// Lets the gate commit, waits until every started write has returned, and removes the hooks.
    func open() {
        release.signal()
        finished.wait()
        store.writes.setHooks(WriteQueue.Hooks())
    }
}

/// What each write of a ``WriteGate`` ended with, reported from many threads.
///
/// `@unchecked Sendable`: `outcomes` is private and read or written only while holding `lock`.
final class WriteResults: @unchecked Sendable {
    private let lock = NSLock()
    private var outcomes: [String: CustomerStoreError.Reason?] = [:]

    func add(_ name: String, _ reason: CustomerStoreError.Reason?) {
        lock.withLock { outcomes[name] = .some(reason) }
    }

    /// Names of the writes that succeeded.
    var succeeded: Set<String> { lock.withLock { Set(outcomes.filter { $0.value == nil }.keys) } }

    /// Failed writes by name, with their reasons.
    var failed: [String: CustomerStoreError.Reason] {
        lock.withLock { outcomes.compactMapValues { $0 } }
    }
}
