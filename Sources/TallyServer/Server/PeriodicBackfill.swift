import Foundation
import TallyServices

/// Back-fills inside `tally serve` every `appStoreServerAPI.backfillIntervalSeconds` (off by default): the same
/// ``EntitlementAPI/backfill(since:progress:)`` as `tally serve backfill`, from the stored cursor (the first one
/// reaches back as far as Apple's notification history goes: 180 days, 30 in the Sandbox). A failure goes to the log and the next
/// round tries again. A service: the wait between rounds ends at once on cancellation, a round under way finishes.
struct PeriodicBackfill: Service {
    let name = "back-fill"
    let api: EntitlementAPI
    /// Seconds between rounds.
    let interval: TimeInterval
    let log: @Sendable (String) -> Void
    private let queue = BlockingQueue(label: "tally back-fill")

    init(api: EntitlementAPI, interval: TimeInterval, log: @escaping @Sendable (String) -> Void) {
        self.api = api
        self.interval = interval
        self.log = log
    }

    func run() async throws {
        let api = api, log = log
        while true {
            try await Task.sleep(nanoseconds: interval.nanosecondsForWaiting)
            await queue.run { _ in
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
}
