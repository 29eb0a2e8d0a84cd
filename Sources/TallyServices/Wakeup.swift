import Dispatch
import TallyLocking

/// A wake-up call a service waits for between rounds: ``signal()`` (from any thread, such as a request handler
/// storing work) ends the ``wait(upTo:)`` under way, or the next one when none is waiting; signals before a wait
/// count as one.
public final class Wakeup: Sendable {
    private let state = Locked(State())

    private struct State {
        var pending = false
        var waiter: (id: UInt64, continuation: CheckedContinuation<Void, Never>)?
        var nextId: UInt64 = 0
    }

    /// A wake-up call not yet signalled.
    public init() {}

    /// Wakes the waiting service, or the next wait when none waits.
    public func signal() {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil as CheckedContinuation<Void, Never>?
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }

    /// Returns when signalled (at once if a signal came since the last wait) or after `nanoseconds` on the
    /// monotonic clock, whichever comes first; throws `CancellationError` as soon as the task is cancelled.
    public func wait(upTo nanoseconds: UInt64) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            state.nextId += 1
            return state.nextId
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = (id, continuation)
                    return false
                }
                if now {
                    continuation.resume()
                    return
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Self.clamp(nanoseconds))) { [self] in
                    resume(id)
                }
            }
        } onCancel: {
            resume(id)
        }
        try Task.checkCancellation()
    }

    /// Resumes the wait `id` if it is still the one waiting.
    private func resume(_ id: UInt64) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter, waiter.id == id else { return nil as CheckedContinuation<Void, Never>? }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }

    /// `nanoseconds` as a `DispatchTimeInterval` count, which is an `Int`.
    private static func clamp(_ nanoseconds: UInt64) -> Int { Int(min(nanoseconds, UInt64(Int.max))) }
}

extension Double {
    /// These seconds as nanoseconds for `Task.sleep(nanoseconds:)` and ``Wakeup/wait(upTo:)``: 0 below 0,
    /// saturating above `UInt64.max`.
    public var nanosecondsForWaiting: UInt64 {
        guard self > 0 else { return 0 }
        let nanoseconds = self * 1_000_000_000
        return nanoseconds >= Double(UInt64.max) ? UInt64.max : UInt64(nanoseconds)
    }
}
