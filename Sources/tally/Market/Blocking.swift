import Dispatch
import Synchronization

/// Runs async work from synchronous code (the command line's main thread), waiting for its result.
/// The main thread blocks on a semaphore, so `readLine()` and the wait never hold a cooperative thread.
enum Blocking {
    /// Runs `body` on the concurrency pool and returns its result.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            box.value.withLock { $0 = value }
            done.signal()
        }
        while true {
            done.wait()
            if let value = box.value.withLock({ $0 }) { return value }
        }
    }

    /// The result handed from the task to the waiting thread.
    private final class ResultBox<T: Sendable>: Sendable {
        let value = Mutex<T?>(nil)
    }
}
