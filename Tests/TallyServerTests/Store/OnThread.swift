import Foundation

/// Runs blocking test code (semaphores, thread joins) on a thread of its own, so it never blocks Swift's
/// cooperative pool (two threads on a two-core machine).
enum OnThread {
    /// Runs `body` on a new thread and returns (or rethrows) what it returns.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// Runs `body(0)` … `body(count - 1)` on `count` threads at once; returns when all have finished.
    static func together(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                body(index)
                group.leave()
            }.start()
        }
        group.wait()
    }
}
