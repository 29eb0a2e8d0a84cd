import Dispatch
import Foundation
import TallyLocking

/// Long-running background work inside a server: ``run()`` works until the task running it is cancelled, then
/// returns. A ``ServiceGroup`` starts services and stops them.
///
/// Blocking work (SQLite, a URLSession call waited on) never runs on Swift's cooperative pool: each round goes
/// through a ``BlockingQueue``, and the waits between rounds (`Task.sleep(nanoseconds:)`, ``Wakeup/wait(upTo:)``)
/// are what cancellation interrupts.
public protocol Service: Sendable {
    /// A short name for reports, such as `back-fill`.
    var name: String { get }

    /// Works until the current task is cancelled, then returns; an error thrown is reported by the group.
    func run() async throws
}

/// A service's `run()` that threw something other than `CancellationError`, as ``ServiceGroup`` reports it.
public struct ServiceFailure: Error, Sendable, CustomStringConvertible {
    /// The service's ``Service/name``.
    public let service: String
    /// What its `run()` threw.
    public let error: any Error

    /// `NAME stopped: ERROR`.
    public var description: String { "\(service) stopped: \(error)" }
}

/// Runs services, each as a child task of one task, from ``start()`` until a stop, which cancels them all and
/// returns only once every `run()` has returned (a round under way finishes first).
public final class ServiceGroup: Sendable {
    /// The services run, in start order.
    public let services: [any Service]
    private let report: @Sendable (ServiceFailure) -> Void
    private let state = Locked(State())
    private let finished = DispatchSemaphore(value: 0)

    private struct State {
        var task: Task<Void, Never>?
        var started = false
    }

    /// A group of `services`; a `run()` that throws is passed to `report` (the others keep running).
    public init(_ services: [any Service], report: @escaping @Sendable (ServiceFailure) -> Void) {
        self.services = services
        self.report = report
    }

    /// Starts every service; calling it again does nothing.
    public func start() {
        let services = services, report = report, finished = finished
        state.withLock { state in
            guard !state.started else { return }
            state.started = true
            guard !services.isEmpty else { return }
            state.task = Task.detached {
                await withTaskGroup(of: Void.self) { group in
                    for service in services {
                        group.addTask {
                            do {
                                try await service.run()
                            } catch is CancellationError {
                            } catch {
                                report(ServiceFailure(service: service.name, error: error))
                            }
                        }
                    }
                    await group.waitForAll()
                }
                finished.signal()
            }
        }
    }

    /// Cancels every service and waits until each `run()` has returned. Calling it again, or before
    /// ``start()``, returns at once.
    public func stop() async {
        guard let task = takeTask() else { return }
        task.cancel()
        await task.value
    }

    /// ``stop()`` for synchronous callers (a command's main thread, a server's `stop()`): cancels and blocks the
    /// calling thread until every `run()` has returned. Not for a task on the cooperative pool: use ``stop()``.
    public func stopAndWait() {
        guard let task = takeTask() else { return }
        task.cancel()
        finished.wait()
    }

    /// The running task, taken so that only the first stop waits for it.
    private func takeTask() -> Task<Void, Never>? {
        state.withLock { state in
            state.started = true  // a group stopped before it started never starts
            defer { state.task = nil }
            return state.task
        }
    }
}
