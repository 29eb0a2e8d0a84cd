import Foundation
import TallyLocking

/// The threads that run ``HTTPServer/BlockingRequests``: a queue of jobs and a fixed set of threads taking them.
///
/// Once ``close()`` was called, ``submit(prepare:_:)`` refuses (the caller runs the job itself), and
/// ``waitUntilIdle()`` returns when every accepted job has finished: the server stops the daemon only then, so
/// no job resumes a connection of a stopped daemon.
///
/// `@unchecked Sendable`: `jobs`, `head`, `closed` and `quitting` are read and written only while holding
/// `lock`; `unfinished` has its own lock; the semaphore is thread-safe; `threads` is written only in `init`. The queue
/// uses `NSLock` (a plain `pthread_mutex_t`) rather than `Mutex`: under 32 threads waking together, `Mutex`'s
/// spinning slow path took 30% of the server's CPU in a `perf` profile of the spend benchmark.
final class BlockingPool: @unchecked Sendable {
    private let lock = NSLock()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var closed = false
    private var quitting = false
    private let unfinished = Locked(0)
    private let available = DispatchSemaphore(value: 0)
    /// Written only in `init`, read by ``quit()``.
    private var threads: [JoinableThread] = []

    /// Starts `count` threads; throws (having ended those it started) when the system refuses one.
    init(threads count: Int) throws(HTTPServerError) {
        for index in 0..<count {
            guard let thread = JoinableThread(name: "http-block-\(index)", { [self] in work() }) else {
                quit()
                throw .startFailed("the system refused thread \(index + 1) of the \(count) that run blocking requests; "
                    + "configure fewer or raise the process's thread limit (ulimit -u)")
            }
            threads.append(thread)
        }
    }

    /// Runs `prepare`, then queues `job`; false once the pool is closed (neither ran).
    func submit(prepare: () -> Void, _ job: @escaping @Sendable () -> Void) -> Bool {
        lock.lock()
        guard !closed else {
            lock.unlock()
            return false
        }
        prepare()
        jobs.append(job)
        unfinished.withLock { $0 += 1 }
        lock.unlock()
        available.signal()
        return true
    }

    /// Refuses further jobs.
    func close() {
        lock.withLock { closed = true }
    }

    /// Returns when every accepted job has finished.
    func waitUntilIdle() {
        while unfinished.withLock({ $0 }) > 0 { usleep(1_000) }
    }

    /// Ends the threads once the queue is empty, and returns when every one has ended (its thread-local state
    /// freed): a process may exit right after.
    func quit() {
        lock.withLock { quitting = true }
        for _ in threads { available.signal() }
        for thread in threads { thread.join() }
    }

    /// The next job, or nil when the queue is empty (then whether the pool is quitting).
    private func next() -> (job: (@Sendable () -> Void)?, quitting: Bool) {
        lock.lock()
        defer { lock.unlock() }
        guard head < jobs.count else { return (nil, quitting) }
        let job = jobs[head]
        head += 1
        if head >= 1_024, head * 2 >= jobs.count {  // drop the taken prefix now and then
            jobs.removeFirst(head)
            head = 0
        }
        return (job, false)
    }

    private func work() {
        while true {
            available.wait()
            let (job, quitting) = next()
            guard let job else {
                if quitting { return }
                continue
            }
            job()
            unfinished.withLock { $0 -= 1 }
        }
    }
}
