import Foundation
import Synchronization

/// The threads that run ``HTTPServer/BlockingRequests``: a queue of jobs and a fixed set of threads taking them.
///
/// Once ``close()`` was called, ``submit(_:)`` refuses (the caller runs the job itself), and
/// ``waitUntilIdle()`` returns when every accepted job has finished: the server stops the daemon only then, so
/// no job resumes a connection of a stopped daemon.
final class BlockingPool: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var unfinished = 0
        var closed = false
        var quitting = false
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let threadCount: Int

    /// Starts `threads` threads.
    init(threads: Int) {
        threadCount = threads
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "http-blocking-\(index)"
            thread.start()
        }
    }

    /// Runs `prepare`, then queues `job`; false once the pool is closed (neither ran).
    func submit(prepare: () -> Void, _ job: @escaping @Sendable () -> Void) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            prepare()
            state.jobs.append(job)
            state.unfinished += 1
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    /// Refuses further jobs.
    func close() {
        state.withLock { $0.closed = true }
    }

    /// Returns when every accepted job has finished.
    func waitUntilIdle() {
        while state.withLock({ $0.unfinished }) > 0 { usleep(1_000) }
    }

    /// Ends the threads once the queue is empty.
    func quit() {
        state.withLock { $0.quitting = true }
        for _ in 0..<threadCount { available.signal() }
    }

    private func work() {
        while true {
            available.wait()
            let job = state.withLock { state -> (@Sendable () -> Void)? in
                state.jobs.isEmpty ? nil : state.jobs.removeFirst()
            }
            guard let job else {
                if state.withLock({ $0.quitting }) { return }
                continue
            }
            job()
            state.withLock { $0.unfinished -= 1 }
        }
    }
}
