import Foundation


/// Works out one subscription group's state at `now` from its transactions and renewal information.
struct SubscriptionResolver {
    let transactions: [Transaction]
    let products: ProductLookup
    let renewals: RenewalLookup
    let now: Date

    /// The group's state; nil when the group has no transactions.
    func resolve(groupId: String, indices: [Int]) -> CustomerState.Subscription? {
        guard let latest = latestPurchase(indices) else { return nil }
        let inForce = InForceSelection(transactions: transactions, products: products, now: now, group: indices).pick()
        if let inForce, let expires = transactions[inForce].expiresDate, now < expires {
            return state(groupId: groupId, reference: inForce, status: .subscribed,
                         renewal: renewal(for: inForce, in: indices))
        }
        if transactions[latest].isRevoked(at: now) {
            return state(groupId: groupId, reference: latest, status: .revoked, renewal: nil)
        }
        let reference = inForce ?? latest
        let renewal = renewal(for: reference, in: indices)
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

    private func state(groupId: String, reference: Int, status: SubscriptionStatus,
                       renewal: RenewalInfo?) -> CustomerState.Subscription {
        let transaction = transactions[reference]
        let stillRunning = status != .expired && status != .revoked
        let willRenew = stillRunning && (renewal?.willAutoRenew ?? false)
        var pending: String?
        if willRenew, let next = renewal?.autoRenewProductId, next != transaction.productId { pending = next }
        return CustomerState.Subscription(
            groupId: groupId, productId: transaction.productId, status: status,
            expiresDate: transaction.expiresDate, willRenew: willRenew, pendingProductId: pending,
            originalTransactionId: transaction.originalTransactionId)
    }

    /// The latest purchase of the group (the later position on equal dates).
    private func latestPurchase(_ indices: [Int]) -> Int? {
        var best: Int?
        for index in indices {
            if let current = best, transactions[index].purchaseDate < transactions[current].purchaseDate { continue }
            best = index
        }
        return best
    }

    /// The renewal information of the reference transaction's chain, else of the group's most recently
    /// purchased chain that has one.
    private func renewal(for reference: Int, in indices: [Int]) -> RenewalInfo? {
        if let info = renewals[transactions[reference].originalTransactionId] { return info }
        guard !renewals.isEmpty else { return nil }
        var best: (date: Date, info: RenewalInfo)?
        for index in indices {
            let date = transactions[index].purchaseDate
            if let current = best, current.date > date { continue }
            if let info = renewals[transactions[index].originalTransactionId] { best = (date, info) }
        }
        return best?.info
    }
}
