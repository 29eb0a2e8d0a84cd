import Foundation
import TallyServices

/// Back-fills inside `tally serve` every `appStoreServerAPI.backfillIntervalSeconds` (off by default): the same
/// ``EntitlementAPI/backfill(since:progress:)`` as `tally serve backfill`, from the stored cursor (the first one
/// reaches back as far as Apple's notification history goes: 180 days, 30 in the Sandbox). A failure goes to the log and the next
/// round tries again.
enum PeriodicBackfill {
    /// The back-fill as a service: a wait of `interval` seconds, then a round, until cancelled.
    static func service(api: EntitlementAPI, interval: TimeInterval,
                        log: @escaping @Sendable (String) -> Void) -> RoundService {
        RoundService(name: "back-fill", every: interval, start: .wait) { _ in
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
}
