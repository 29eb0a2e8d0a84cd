import Foundation
import TallyLocking
import TallySandbox
import TallyServices

/// Delivers the sandbox's recorded notifications to its notification URL, inside `tally sandbox serve`: it
/// watches the store's change counter (one small query per ``pollInterval``, as the sandbox backend does) and,
/// whenever it moved, posts every notification due at the sandbox's now, in order of `signedDate`, one at a
/// time. Each attempt is recorded after the receiver's answer (``SandboxDirectory/recordAttempt(uuid:result:httpStatus:)``),
/// so a notification is marked delivered only once a 200–206 came back, and one whose attempt a crash cut
/// short is sent again: at least once. Retries are due on the sandbox clock, so `tally sandbox advance` moves
/// them along. A service (run it in a `ServiceGroup`): cancelled, it ends the wait at once, or finishes recording
/// the attempt in flight and posts no more.
public struct NotificationSender: Service {
    /// `notification sender`.
    public let name = "notification sender"
    /// The sandbox's data directory.
    public let directory: URL
    /// Seconds to wait for a receiver's answer before the attempt is `TIMED_OUT`.
    public let timeout: TimeInterval
    /// How often, in seconds, the store's change counter is looked at.
    public let pollInterval: TimeInterval
    private let sandboxDirectory: SandboxDirectory
    private let store: SandboxStore
    private let poster: NotificationPoster

    /// A sender for the sandbox in `directory`; a ``ServiceGroup`` runs it.
    public init(directory: URL, timeout: TimeInterval = 5, pollInterval: TimeInterval = 0.1) {
        self.directory = directory
        self.timeout = timeout
        self.pollInterval = pollInterval
        sandboxDirectory = SandboxDirectory(url: directory)
        store = SandboxStore(directory: sandboxDirectory)
        poster = NotificationPoster(timeout: timeout)
    }

    /// Delivers until cancelled.
    public func run() async throws {
        let seen = Locked<Int64?>(nil)  // the change counter when every due notification last got its attempt
        try await RoundService(name: name, every: pollInterval, start: .round) { [self] isCancelled in
            guard let stamp = store.stamp(), stamp.generation != seen.withLock({ $0 }) else { return }
            // Seen only when every due notification got its attempt; else look again next time.
            if deliverDue(isCancelled: isCancelled) { seen.withLock { $0 = stamp.generation } }
        }.run()
    }

    /// Posts every notification due now; true when each got its attempt recorded.
    @discardableResult
    func deliverDue(isCancelled: () -> Bool = { false }) -> Bool {
        guard let (due, settings, _) = try? sandboxDirectory.dueNotifications() else { return false }
        guard let text = settings.notificationURL, let url = URL(string: text) else { return true }
        for notification in due {
            if isCancelled() { return false }
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
