import Foundation
import TallyLocking
import TallySandbox

/// Delivers the sandbox's recorded notifications to its notification URL, inside `tally sandbox serve`: it
/// watches the store's change counter (one small query per ``pollInterval``, as the sandbox backend does) and,
/// whenever it moved, posts every notification due at the sandbox's now, in order of `signedDate`, one at a
/// time. Each attempt is recorded after the receiver's answer (``SandboxDirectory/recordAttempt(uuid:result:httpStatus:)``),
/// so a notification is marked delivered only once a 200–206 came back, and one whose attempt a crash cut
/// short is sent again: at least once. Retries are due on the sandbox clock, so `tally sandbox advance` moves
/// them along.
public final class NotificationSender: Sendable {
    /// The sandbox's data directory.
    public let directory: URL
    /// Seconds to wait for a receiver's answer before the attempt is `TIMED_OUT`.
    public let timeout: TimeInterval
    /// How often, in seconds, the store's change counter is looked at.
    public let pollInterval: TimeInterval
    private let sandboxDirectory: SandboxDirectory
    private let store: SandboxStore
    private let poster: NotificationPoster
    private let stopping = Locked(false)
    private let stopped = DispatchSemaphore(value: 0)

    /// A sender for the sandbox in `directory`; ``start()`` runs it.
    public init(directory: URL, timeout: TimeInterval = 5, pollInterval: TimeInterval = 0.1) {
        self.directory = directory
        self.timeout = timeout
        self.pollInterval = pollInterval
        sandboxDirectory = SandboxDirectory(url: directory)
        store = SandboxStore(directory: sandboxDirectory)
        poster = NotificationPoster(timeout: timeout)
    }

    /// Starts delivering on a thread of its own, until ``stop()``.
    public func start() {
        let thread = Thread { [self] in
            run()
            stopped.signal()
        }
        thread.name = "tally notification sender"
        thread.start()
    }

    /// Stops after the attempt in flight (if any) is recorded; waits at most `timeout` plus two seconds.
    public func stop() {
        stopping.withLock { $0 = true }
        _ = stopped.wait(timeout: .now() + timeout + 2)
    }

    private var isStopping: Bool { stopping.withLock { $0 } }

    private func run() {
        var seen: Int64?
        while !isStopping {
            if let stamp = store.stamp(), stamp.generation != seen {
                // Seen only when every due notification got its attempt; else look again next time.
                if deliverDue() { seen = stamp.generation }
            }
            Thread.sleep(forTimeInterval: pollInterval)
        }
    }

    /// Posts every notification due now; true when each got its attempt recorded.
    @discardableResult
    func deliverDue() -> Bool {
        guard let (due, settings, _) = try? sandboxDirectory.dueNotifications() else { return false }
        guard let text = settings.notificationURL, let url = URL(string: text) else { return true }
        for notification in due {
            if isStopping { return false }
            let outcome = poster.post(notification.signedPayload, to: url)
            do {
                try sandboxDirectory.recordAttempt(uuid: notification.notificationUUID, result: outcome.result,
                                                   httpStatus: outcome.httpStatus)
            } catch {
                FileHandle.standardError.write(Data(
                    "tally sandbox serve: cannot record the attempt to deliver \(notification.notificationUUID): \(error)\n".utf8))
                return false
            }
        }
        return true
    }
}
