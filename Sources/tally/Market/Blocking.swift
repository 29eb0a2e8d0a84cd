import Dispatch
import TallyLocking

/// Runs async work from synchronous code (the command line's main thread), waiting for its result.
/// The main thread blocks on a semaphore, so the wait never holds a thread of the concurrency pool.
enum Blocking {
    /// Runs `body` on the concurrency pool and returns its result.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = Locked<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            box.withLock { $0 = value }
            done.signal()
        }
        while true {
            done.wait()
            if let value = box.withLock({ $0 }) { return value }
        }
    }
}
