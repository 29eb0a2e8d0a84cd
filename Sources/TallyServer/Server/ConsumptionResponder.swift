import Foundation
import TallyServices

/// Answers `CONSUMPTION_REQUEST` notifications inside `tally serve` (when
/// `appStoreServerAPI.consumptionInformation` is configured): a round of
/// ``EntitlementAPI/answerConsumptionRequests()`` as soon as one is stored (``EntitlementAPI/consumptionRequestArrived``),
/// at start (requests left open by a restart), and every `interval` seconds (requests waiting for their
/// transaction's post, or for the API). A service: cancellation ends the wait at once, a round under way finishes.
struct ConsumptionResponder: Service {
    let name = "consumption responder"
    let api: EntitlementAPI
    /// Seconds between rounds when no request arrives.
    let interval: TimeInterval
    let log: @Sendable (String) -> Void
    private let queue = BlockingQueue(label: "tally consumption responder")

    init(api: EntitlementAPI, interval: TimeInterval = 30, log: @escaping @Sendable (String) -> Void) {
        self.api = api
        self.interval = interval
        self.log = log
    }

    func run() async throws {
        let api = api, log = log
        while true {
            await queue.run { _ in
                do {
                    let round = try api.answerConsumptionRequests()
                    if round.refused + round.expired > 0 {
                        log("consumption requests: \(round.refused) refused by Apple, \(round.expired) expired")
                    }
                } catch {
                    log("answering consumption requests failed (will try again): \(error)")
                }
            }
            try await api.consumptionRequestArrived.wait(upTo: interval.nanosecondsForWaiting)
        }
    }
}
