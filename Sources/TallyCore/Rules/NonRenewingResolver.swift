import Foundation


/// Works out non-renewing subscriptions: each purchase lasts the configured duration, a purchase made while
/// still active starts when the previous period ends, and a revoked purchase contributes nothing.
struct NonRenewingResolver {
    let transactions: [Transaction]
    let durations: [String: SubscriptionPeriod]
    let now: Date

    /// The states, sorted by product id, and a warning for each product without a configured duration.
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
    private func chainedExpiry(_ indices: [Int], duration: SubscriptionPeriod) -> Date? {
        var kept = indices.filter { !transactions[$0].isRevoked(at: now) }
        let inOrder = zip(kept, kept.dropFirst()).allSatisfy {
            transactions[$0].purchaseDate <= transactions[$1].purchaseDate
        }
        if !inOrder {
            kept.sort { (transactions[$0].purchaseDate, $0) < (transactions[$1].purchaseDate, $1) }
        }
        var expiry: Date?
        for index in kept {
            let bought = transactions[index].purchaseDate
            let start = expiry.map { max($0, bought) } ?? bought
            expiry = UTCCalendar.advance(start, by: duration)
        }
        return expiry
    }
}
