import Foundation


/// Works out non-renewing subscriptions: each purchase lasts the configured duration, a purchase made while
/// still active starts when the previous period ends, and a revoked purchase contributes nothing.
struct NonRenewingResolver {
    let history: ClassifiedHistory
    let durations: [String: SubscriptionDuration]
    let now: Date

    /// The states, sorted by product id, and a warning for each product without a configured duration.
    /// `purchases` maps product ids to positions in ``ClassifiedHistory``.
    func resolve(_ purchases: [String: [Int]]) -> (states: [CustomerState.NonRenewing], warnings: [String]) {
        var states: [CustomerState.NonRenewing] = []
        var warnings: [String] = []
        for productId in purchases.keys.sorted() {
            guard let duration = durations[productId] else {
                warnings.append("non-renewing '\(productId)' has no duration in tally.json (nonRenewingDurations); "
                    + "it is treated as never active")
                continue
            }
            guard let expiry = chainedExpiry(purchases[productId] ?? [], duration: duration) else { continue }
            states.append(CustomerState.NonRenewing(productId: productId, expiresDate: expiry, isActive: now < expiry))
        }
        return (states, warnings)
    }

    /// The end of the chained periods of the purchases not revoked; nil when every purchase was revoked.
    private func chainedExpiry(_ positions: [Int], duration: SubscriptionDuration) -> Date? {
        var kept = positions.filter { !history.isRevoked($0, at: now) }
        let dates = history.purchaseDates
        if !zip(kept, kept.dropFirst()).allSatisfy({ dates[$0] <= dates[$1] }) {
            kept.sort { (dates[$0], $0) < (dates[$1], $1) }
        }
        var expiry: Date?
        for position in kept {
            let bought = dates[position]
            let start = expiry.map { max($0, bought) } ?? bought
            expiry = duration.advance(start)
        }
        return expiry
    }
}
