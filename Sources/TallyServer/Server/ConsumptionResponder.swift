import Foundation
import TallyServices

/// Answers `CONSUMPTION_REQUEST` notifications inside `tally serve` (when
/// `appStoreServerAPI.consumptionInformation` is configured): a round of
/// ``EntitlementAPI/answerConsumptionRequests()`` as soon as one is stored (``EntitlementAPI/consumptionRequestArrived``),
/// at start (requests left open by a restart), and every `interval` seconds (requests waiting for their
/// transaction's post, or for the API).
enum ConsumptionResponder {
    /// The responder as a service, until cancelled.
    static func service(api: EntitlementAPI, interval: TimeInterval = 30,
                        log: @escaping @Sendable (String) -> Void) -> RoundService {
        RoundService(name: "consumption responder", every: interval, wakeup: api.consumptionRequestArrived,
                     start: .round) { _ in
            do {
                let round = try api.answerConsumptionRequests()
                if round.refused + round.expired > 0 {
                    log("consumption requests: \(round.refused) refused by Apple, \(round.expired) expired")
                }
            } catch {
                log("answering consumption requests failed (will try again): \(error)")
            }
        }
    }
}
