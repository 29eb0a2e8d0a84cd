import Foundation
import TallyCore


extension Store {
    /// What a purchase answered with a subscription already in force means, when it is not a purchase.
    struct PurchaseChange {
        /// The outcome returned to the caller.
        var outcome: PurchaseOutcome
        /// The events emitted instead of `purchased`.
        var events: [StoreEvent]
    }

    /// Reads a purchase's answer for a subscription change (StoreKit answers a downgrade with the transaction in
    /// force): the store answered with another product of the group → a change scheduled for the next renewal;
    /// with the product asked for while a change to another one was scheduled → that change cancelled. Nil for
    /// a purchase (new subscription, upgrade, immediate crossgrade, any other product).
    func subscriptionChange(buying productId: String, answer update: TransactionUpdate) -> PurchaseChange? {
        let transaction = update.transaction
        guard transaction.type == .autoRenewable, let wanted = catalog.product(productId),
              let groupId = wanted.subscription?.groupId,
              let current = catalog.product(transaction.productId), current.subscription?.groupId == groupId
        else { return nil }
        let info = verifiedPayload(update.renewalInfo, chain: transaction.originalTransactionId)
        let date = info?.renewalDate ?? transaction.expiresDate
        if transaction.productId != productId {
            let scheduled = ScheduledChange(productId: productId, currentProductId: transaction.productId,
                                            groupId: groupId, change: .classify(from: current, to: wanted),
                                            date: date, transaction: transaction)
            return PurchaseChange(outcome: .changeScheduled(scheduled), events: [.changeScheduled(scheduled)])
        }
        // The product in force bought again: the store answers the transaction already here, and the renewal
        // info before named another product to renew as. (An upgrade answers a new transaction: a purchase.)
        guard record.transactions[transaction.transactionId] != nil,
              let before = record.renewalInfos[transaction.originalTransactionId]?.renewalInfo,
              before.productId == productId,
              let pendingId = before.autoRenewProductId, pendingId != productId,
              let pendingProduct = catalog.product(pendingId),
              (info?.autoRenewProductId ?? productId) == productId else { return nil }
        let cancelled = ScheduledChange(productId: pendingId, currentProductId: productId, groupId: groupId,
                                        change: .classify(from: wanted, to: pendingProduct),
                                        date: before.renewalDate ?? date, transaction: transaction)
        return PurchaseChange(outcome: .changeCancelled(cancelled), events: [.changeCancelled(cancelled)])
    }
}
