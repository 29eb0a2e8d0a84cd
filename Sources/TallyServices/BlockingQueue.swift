import Dispatch
import TallyLocking

/// A serial dispatch queue of a service's own for its blocking rounds, so a slow round (SQLite, a network call
/// waited on) holds this queue's thread, never one of Swift's cooperative pool.
///
/// A round is not interrupted: a task cancelled while its round runs waits for the round to end (that is how a
/// stop joins it); the round can look at `isCancelled` to end early at a safe point.
public struct BlockingQueue: Sendable {
    private let queue: DispatchQueue

    /// A queue labelled `label` (shown in debuggers and crash logs).
    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs `work` on the queue and returns what it returns. `work` gets `isCancelled`, true once the awaiting
    /// task is cancelled.
    public func run<Value: Sendable>(
        _ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> Value
    ) async -> Value {
        let cancelled = Locked(false)
        let isCancelled: @Sendable () -> Bool = { cancelled.withLock { $0 } }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
                queue.async { continuation.resume(returning: work(isCancelled)) }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
    }
}
