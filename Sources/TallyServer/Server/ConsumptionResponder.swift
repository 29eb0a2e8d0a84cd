import Foundation
import TallyLocking

/// Answers `CONSUMPTION_REQUEST` notifications inside `tally serve` (when
/// `appStoreServerAPI.consumptionInformation` is configured): a round of
/// ``EntitlementAPI/answerConsumptionRequests()`` as soon as one is stored, at start (requests left open by
/// a restart), and every `interval` seconds (requests waiting for their transaction's post, or for the API).
final class ConsumptionResponder: Sendable {
    private let running = Locked(true)
    private let api: EntitlementAPI

    init(api: EntitlementAPI, interval: TimeInterval = 30, log: @escaping @Sendable (String) -> Void) {
        self.api = api
        let thread = Thread { [self] in
            while running.withLock({ $0 }) {
                do {
                    let round = try api.answerConsumptionRequests()
                    if round.refused + round.expired > 0 {
                        log("consumption requests: \(round.refused) refused by Apple, \(round.expired) expired")
                    }
                } catch {
                    log("answering consumption requests failed (will try again): \(error)")
                }
                _ = api.consumptionRequestArrived.wait(timeout: .now() + interval)
            }
        }
        thread.start()
    }

    /// Ends the loop after the round under way.
    func stop() {
        running.withLock { $0 = false }
        api.consumptionRequestArrived.signal()
    }
}
