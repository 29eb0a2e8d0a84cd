import Foundation


/// Works out one subscription group's state at `now` from its transactions and renewal information.
struct SubscriptionResolver {
    let transactions: [StoreTransaction]
    let history: ClassifiedHistory
    let renewals: RenewalLookup
    let now: Date

    /// The group's state; nil when the group has no transactions. `positions` index ``ClassifiedHistory``.
    func resolve(groupId: String, positions: [Int]) -> CustomerState.Subscription? {
        guard let latest = latestPurchase(positions) else { return nil }
        let inForce = InForceSelection(history: history, now: now, group: positions).pick()
        if let inForce, let expires = history.expiresDates[inForce], now < expires {
            return state(groupId: groupId, reference: inForce, status: .subscribed,
                         renewal: renewal(for: inForce, in: positions))
        }
        if history.isRevoked(latest, at: now) {
            return state(groupId: groupId, reference: latest, status: .revoked, renewal: nil)
        }
        let reference = inForce ?? latest
        let renewal = renewal(for: reference, in: positions)
        guard let renewal, renewal.isInBillingRetryPeriod == true else {
            return state(groupId: groupId, reference: reference, status: .expired, renewal: renewal)
        }
        if let grace = renewal.gracePeriodExpiresDate, grace > now {
            var result = state(groupId: groupId, reference: reference, status: .inGracePeriod, renewal: renewal)
            result.gracePeriodExpiresDate = grace
            return result
        }
        return state(groupId: groupId, reference: reference, status: .inBillingRetry, renewal: renewal)
    }

    private func state(groupId: String, reference: Int, status: SubscriptionState,
                       renewal: RenewalInfo?) -> CustomerState.Subscription {
        let productId = history.table.productId(history.slots[reference])
        let stillRunning = status != .expired && status != .revoked
        let willRenew = stillRunning && (renewal?.willAutoRenew ?? false)
        var pending: String?
        if willRenew, let next = renewal?.autoRenewProductId, next != productId { pending = next }
        return CustomerState.Subscription(
            groupId: groupId, productId: productId, status: status, expiresDate: history.expiresDates[reference],
            willRenew: willRenew, pendingProductId: pending, originalTransactionId: chain(of: reference))
    }

    private func chain(of position: Int) -> String {
        transactions[history.indices[position]].originalTransactionId
    }

    /// The latest purchase of the group (the later position on equal dates).
    private func latestPurchase(_ positions: [Int]) -> Int? {
        var best: Int?
        for position in positions {
            if let current = best, history.purchaseDates[position] < history.purchaseDates[current] { continue }
            best = position
        }
        return best
    }

    /// The renewal information of the reference transaction's chain, else of the group's most recently
    /// purchased chain that has one.
    private func renewal(for reference: Int, in positions: [Int]) -> RenewalInfo? {
        if let info = renewals[chain(of: reference)] { return info }
        guard !renewals.isEmpty else { return nil }
        var best: (date: Date, info: RenewalInfo)?
        for position in positions {
            let date = history.purchaseDates[position]
            if let current = best, current.date > date { continue }
            if let info = renewals[chain(of: position)] { best = (date, info) }
        }
        return best?.info
    }
}
