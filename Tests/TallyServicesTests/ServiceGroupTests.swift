import Dispatch
import Foundation
import TallyLocking
import TallyServices
import Testing

/// What the services under test did, in order; a test awaits an event rather than a timer.
final class Events: Sendable {
    private let state = Locked<(log: [String], waiters: [(String, CheckedContinuation<Void, Never>)])>(([], []))

    /// Records `event` and wakes whoever awaits it.
    func record(_ event: String) {
        let woken = state.withLock { state in
            state.log.append(event)
            let woken = state.waiters.filter { $0.0 == event }.map(\.1)
            state.waiters.removeAll { $0.0 == event }
            return woken
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once `event` has been recorded.
    func awaitEvent(_ event: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.log.contains(event) { return true }
                state.waiters.append((event, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Everything recorded so far.
    var log: [String] { state.withLock { $0.log } }

    /// The position of `event` in the log.
    func index(_ event: String) -> Int? { log.firstIndex(of: event) }
}

/// Waits an hour between rounds: only a cancellation ends it in a test.
struct LongWaiter: Service {
    let name: String
    let events: Events

    func run() async throws {
        defer { events.record("\(name) returned") }
        events.record("\(name) waiting")
        try await Task.sleep(nanoseconds: 3_600_000_000_000)
        events.record("\(name) woke")
    }
}

/// One blocking round that holds its queue until `release` is signalled.
struct BlockingRounder: Service {
    let name: String
    let events: Events
    let release: DispatchSemaphore
    private let queue = BlockingQueue(label: "test blocking round")

    init(name: String, events: Events, release: DispatchSemaphore) {
        self.name = name
        self.events = events
        self.release = release
    }

    func run() async throws {
        defer { events.record("\(name) returned") }
        let events = events, release = release, name = name
        await withTaskCancellationHandler {
            await queue.run { _ in
                events.record("\(name) round started")
                release.wait()
                events.record("\(name) round ended")
            }
        } onCancel: {
            events.record("\(name) cancelled")
        }
        try await Task.sleep(nanoseconds: 3_600_000_000_000)
    }
}

/// Throws at once.
struct Failing: Service {
    struct Broken: Error, CustomStringConvertible { var description: String { "broken on purpose" } }
    let name = "failing"

    func run() async throws { throw Broken() }
}

@Suite(.timeLimit(.minutes(1))) struct ServiceGroupTests {
    @Test func aStopDuringALongWaitReturnsWithEveryRunReturned() async {
        let events = Events()
        let group = ServiceGroup([LongWaiter(name: "a", events: events), LongWaiter(name: "b", events: events)],
                                 report: { failure in events.record("failure \(failure)") })
        group.start()
        await events.awaitEvent("a waiting")
        await events.awaitEvent("b waiting")
        await group.stop()
        events.record("stopped")
        #expect(events.index("a returned")! < events.index("stopped")!)
        #expect(events.index("b returned")! < events.index("stopped")!)
        #expect(!events.log.contains("a woke") && !events.log.contains("b woke"))
        #expect(!events.log.contains { $0.hasPrefix("failure") }, "a cancellation is no failure")
    }

    @Test func theSynchronousStopJoinsToo() async {
        let events = Events()
        let group = ServiceGroup([LongWaiter(name: "a", events: events)], report: { _ in })
        group.start()
        await events.awaitEvent("a waiting")
        await BlockingQueue(label: "test stopper").run { _ in
            group.stopAndWait()
            events.record("stopped")
        }
        #expect(events.index("a returned")! < events.index("stopped")!)
    }

    @Test func aStopWaitsForTheBlockingRoundUnderWay() async {
        let events = Events(), release = DispatchSemaphore(value: 0)
        let group = ServiceGroup([BlockingRounder(name: "r", events: events, release: release)], report: { _ in })
        group.start()
        await events.awaitEvent("r round started")
        let stopping = Task {
            await group.stop()
            events.record("stopped")
        }
        await events.awaitEvent("r cancelled")
        #expect(!events.log.contains("stopped"), "the round still holds its queue")
        release.signal()
        await stopping.value
        #expect(events.log.suffix(3) == ["r round ended", "r returned", "stopped"])
    }

    @Test func blockingRoundsDoNotHoldTheCooperativePool() async {
        // More rounds blocked at once than the pool has threads: each must still start.
        let count = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
        let events = Events(), release = DispatchSemaphore(value: 0)
        let group = ServiceGroup((0..<count).map { BlockingRounder(name: "r\($0)", events: events, release: release) },
                                 report: { _ in })
        group.start()
        for index in 0..<count { await events.awaitEvent("r\(index) round started") }
        for _ in 0..<count { release.signal() }
        await group.stop()
        for index in 0..<count { #expect(events.log.contains("r\(index) returned")) }
    }

    @Test func aServiceThatThrowsIsReportedAndTheOthersRunOn() async {
        let events = Events()
        let failures = Locked<[ServiceFailure]>([])
        let group = ServiceGroup([Failing(), LongWaiter(name: "a", events: events)]) { failure in
            failures.withLock { $0.append(failure) }
            events.record("reported")
        }
        group.start()
        await events.awaitEvent("reported")
        await events.awaitEvent("a waiting")
        #expect(!events.log.contains("a returned"))
        let reported = failures.withLock { $0 }
        #expect(reported.map(\.service) == ["failing"])
        #expect(reported.first?.error is Failing.Broken)
        #expect(reported.first?.description == "failing stopped: broken on purpose")
        await group.stop()
        #expect(events.log.contains("a returned"))
    }

    @Test func aGroupStoppedBeforeItStartsNeverRuns() async {
        let events = Events()
        let group = ServiceGroup([LongWaiter(name: "a", events: events)], report: { _ in })
        await group.stop()
        group.start()
        group.stopAndWait()
        #expect(events.log.isEmpty)
    }
}

@Suite(.timeLimit(.minutes(1))) struct WakeupTests {
    @Test func aSignalEndsAWaitUnderWay() async throws {
        let wakeup = Wakeup(), events = Events()
        let waiting = Task {
            events.record("waiting")
            try await wakeup.wait(upTo: 3_600_000_000_000)
            events.record("woken")
        }
        await events.awaitEvent("waiting")
        wakeup.signal()
        try await waiting.value
        #expect(events.log == ["waiting", "woken"])
    }

    @Test func aSignalBeforeTheWaitEndsTheNextWaitOnlyOnce() async throws {
        let wakeup = Wakeup()
        wakeup.signal()
        wakeup.signal()
        try await wakeup.wait(upTo: 3_600_000_000_000)
        try await wakeup.wait(upTo: 1_000_000)  // signals before a wait count as one: this one times out
    }

    @Test func cancellationEndsTheWaitWithCancellationError() async {
        let wakeup = Wakeup(), events = Events()
        let waiting = Task {
            events.record("waiting")
            try await wakeup.wait(upTo: 3_600_000_000_000)
        }
        await events.awaitEvent("waiting")
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test func secondsBecomeNanosecondsForWaiting() {
        #expect((0.5).nanosecondsForWaiting == 500_000_000)
        #expect((-1.0).nanosecondsForWaiting == 0)
        #expect(Double.infinity.nanosecondsForWaiting == UInt64.max)
    }
}

@Suite(.timeLimit(.minutes(1))) struct RoundServiceTests {
    @Test func aSignalStartsTheNextRoundAtOnceAndAStopJoinsIt() async {
        let events = Events(), wakeup = Wakeup(), rounds = Locked(0)
        let service = RoundService(name: "rounds", every: 3_600, wakeup: wakeup, start: .round) { _ in
            let count = rounds.withLock { count in
                count += 1
                return count
            }
            events.record("round \(count)")
        }
        let group = ServiceGroup([service], report: { _ in })
        group.start()
        await events.awaitEvent("round 1")
        wakeup.signal()
        await events.awaitEvent("round 2")
        await group.stop()
        #expect(events.log == ["round 1", "round 2"])
    }

    @Test func aServiceStartingWithAWaitStopsWithoutARound() async {
        let events = Events()
        let group = ServiceGroup([RoundService(name: "later", every: 3_600, start: .wait) { _ in events.record("round") },
                                  LongWaiter(name: "marker", events: events)],
                                 report: { _ in })
        group.start()
        await events.awaitEvent("marker waiting")
        await group.stop()
        #expect(!events.log.contains("round"))
    }
}

@Suite(.timeLimit(.minutes(1))) struct BlockingQueueTests {
    @Test func aRoundSeesItsTaskCancelledAndFinishes() async {
        let events = Events(), release = DispatchSemaphore(value: 0)
        let queue = BlockingQueue(label: "test cancelled round")
        let task = Task {
            await queue.run { isCancelled in
                events.record("started, cancelled: \(isCancelled())")
                release.wait()
                events.record("released, cancelled: \(isCancelled())")
                return 7
            }
        }
        await events.awaitEvent("started, cancelled: false")
        task.cancel()
        release.signal()
        #expect(await task.value == 7, "a cancelled round still returns its value")
        #expect(events.log == ["started, cancelled: false", "released, cancelled: true"])
    }
}
