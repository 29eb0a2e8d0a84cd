import Foundation
import TallyCore

extension NotificationRows {
    /// A post's steps inside the store's write transaction: the posted chains locked, each transaction through
    /// ``TransactionRecorder`` under `policy`, the versions, then the notifications waiting for these chains,
    /// applied now that they have an owner.
    public func record(_ items: [PreparedTransaction], for appUserId: String, policy: OwnershipPolicy,
                       credits: CurrencyCredits, transferLimit: TransferLimit = TransferLimit(),
                       date: Date) throws(Failure) -> RecordOutcome {
        let chains = items.map(\.normalized.originalTransactionId)
        try lockChains(chains)
        var writer = TransactionRecorder(rows: self, appUserId: appUserId, policy: policy, credits: credits,
                                         transferLimit: transferLimit, date: date)
        for item in items { try writer.store(item) }
        var outcome = try writer.finish()
        var notifications = NotificationRecorder(rows: self, credits: credits, date: date)
        try notifications.adoptAll(chains, into: &outcome)
        return outcome
    }

    /// Reconciliation's steps inside the store's write transaction (the revision is the store's to write): the
    /// chains locked, the transactions as posts under ``OwnershipPolicy/keep``, the renewal infos that supersede
    /// the stored ones (one version step for the customer when any did), then the pending notifications adopted.
    ///
    /// Apple's history is the Apple account's, which other customers of the app may share: a transaction of a
    /// chain nobody owns yet that carries an `appAccountToken` not this customer's (``AccountTokenRule``) is
    /// left unstored, for the customer it was bought for to post (``ReconcileOutcome/pending``).
    public func reconcile(_ items: [PreparedTransaction], renewalInfos: [PreparedRenewalInfo], for appUserId: String,
                          credits: CurrencyCredits, date: Date) throws(Failure) -> ReconcileOutcome {
        try lockChains(items.map(\.normalized.originalTransactionId) + renewalInfos.map(\.normalized.originalTransactionId))
        var pending: [String] = []
        var chains: [String] = []
        var writer = TransactionRecorder(rows: self, appUserId: appUserId, policy: .keep, credits: credits, date: date)
        for item in items {
            let transaction = item.normalized
            if let token = transaction.appAccountToken, try owner(ofChain: transaction.originalTransactionId) == nil,
               try !AccountTokenRule.isToken(token, of: appUserId, in: self) {
                pending.append(transaction.transactionId)
                continue
            }
            chains.append(transaction.originalTransactionId)
            try writer.store(item)
        }
        var notifications = NotificationRecorder(rows: self, credits: credits, date: date)
        var updated = 0
        for info in renewalInfos where try notifications.storeRenewalInfo(info) { updated += 1 }
        if updated > 0 { try bumpVersion(of: appUserId) }
        var outcome = try writer.finish()
        try notifications.adoptAll(chains, into: &outcome)
        return ReconcileOutcome(transactions: outcome, renewalInfosUpdated: updated, pending: pending)
    }
}
