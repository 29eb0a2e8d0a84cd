import Dispatch
import Foundation
import TallyLocking
import TallyCore
import TallyStorage

/// Kept-state reads that arrive together share one statement (`… WHERE app_user_id IN ($1, …, $n)`), as writes
/// share a COMMIT: the first caller leads and reads for everyone waiting (at most ``maximumBatch``); callers that
/// arrive meanwhile wait, and when the leader's batch is answered the first of them leads the next one. A read
/// that finds the reader idle runs at once, alone: nothing waits to fill a batch.
final class StateReadBatch: Sendable {
    /// The most reads one statement answers.
    static let maximumBatch = 16

    /// One waiting read.
    private final class Waiter: Sendable {
        let appUserId: String
        let done = DispatchSemaphore(value: 0)
        /// Set before `done` is signalled: the answer, or nil when this waiter must lead the next batch.
        let outcome = Locked<Result<StoredCustomerState?, CustomerStoreError>?>(nil)

        init(appUserId: String) {
            self.appUserId = appUserId
        }
    }

    private struct Queue {
        var waiting: [Waiter] = []
        var leading = false
    }

    private let queue = Locked(Queue())

    /// The state kept for `appUserId` that is right for `fingerprint` at `date`, read with whatever else is waiting.
    /// `read` runs one batch: the kept rows (at their current version) of the given customers, by id bytes.
    func state(of appUserId: String, fingerprint: String, at date: Date,
               read: ([String]) throws(CustomerStoreError) -> [UTF8Key: StoredCustomerState])
        throws(CustomerStoreError) -> StoredCustomerState?
    {
        let me = Waiter(appUserId: appUserId)
        let leads = queue.withLock { queue -> Bool in
            queue.waiting.append(me)
            if queue.leading { return false }
            queue.leading = true
            return true
        }
        if !leads {
            me.done.wait()
            if let outcome = me.outcome.withLock({ $0 }) { return try Self.valid(outcome.get(), fingerprint, date) }
            // Handed the lead: this waiter's read is still queued, and goes in the batch it now runs.
        }
        while true {
            let batch = queue.withLock { queue -> [Waiter] in
                let batch = Array(queue.waiting.prefix(Self.maximumBatch))
                queue.waiting.removeFirst(batch.count)
                return batch
            }
            let answer: Result<[UTF8Key: StoredCustomerState], CustomerStoreError>
            do {
                answer = .success(try read(batch.map(\.appUserId)))
            } catch {
                answer = .failure(error)
            }
            var mine: Result<StoredCustomerState?, CustomerStoreError>?
            for waiter in batch {
                let outcome = answer.map { $0[UTF8Key(waiter.appUserId)] }
                if waiter === me {
                    mine = outcome
                } else {
                    waiter.outcome.withLock { $0 = outcome }
                    waiter.done.signal()
                }
            }
            // Hand the lead to the first still waiting, or stop leading; this caller then returns its own answer.
            let next = queue.withLock { queue -> Waiter? in
                guard let first = queue.waiting.first else {
                    queue.leading = false
                    return nil
                }
                return first
            }
            if let mine {
                next?.done.signal()
                return try Self.valid(mine.get(), fingerprint, date)
            }
            // This caller's read was not in the batch (more than ``maximumBatch`` were ahead): lead again.
            if next == nil { queue.withLock { $0.leading = true } }
        }
    }

    /// `state` when it was kept with `fingerprint` and `date` is inside its validity.
    static func valid(_ state: StoredCustomerState?, _ fingerprint: String, _ date: Date) -> StoredCustomerState? {
        guard let state, state.isServable(fingerprint: fingerprint, at: date) else { return nil }
        return state
    }
}
