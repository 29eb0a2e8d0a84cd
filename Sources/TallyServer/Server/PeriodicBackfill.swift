import Foundation
import TallyLocking

/// Back-fills inside `tally serve` every `appStoreServerAPI.backfillIntervalSeconds` (off by default): the same
/// ``EntitlementAPI/backfill(since:progress:)`` as `tally serve backfill`, from the stored cursor (the first one
/// reaches back as far as Apple's notification history goes: 180 days, 30 in the Sandbox). A failure goes to the log and the next
/// round tries again.
final class PeriodicBackfill: Sendable {
    private let running = Locked(true)

    init(api: EntitlementAPI, interval: TimeInterval, log: @escaping @Sendable (String) -> Void) {
        let thread = Thread { [self] in
            while running.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: interval)
                guard running.withLock({ $0 }) else { return }
                do {
                    let done = try api.backfill(since: .distantPast)  // clamped to what Apple's history keeps
                    if done.applied > 0 {
                        log("back-fill: \(done.notifications) notifications, \(done.applied) applied, \(done.duplicates) duplicates")
                    }
                } catch {
                    log("back-fill failed (will try again): \(error)")
                }
            }
        }
        thread.start()
    }

    /// Ends the loop after the round under way.
    func stop() { running.withLock { $0 = false } }
}
