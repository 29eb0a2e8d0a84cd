import Foundation
import TallyCore

extension Sandbox {
    /// Sets (or replaces) the app account token of the purchase whose original transaction is
    /// `originalTransactionId` (Set App Account Token): the original transaction of a one-time purchase, or for
    /// a subscription its current transaction and renewal info, so later renewals carry it; past renewals keep
    /// theirs. The changed transaction is re-signed now; an `appAccountTokenSet` event is logged.
    public mutating func setAppAccountToken(originalTransactionId: String, token: String) throws(SandboxError) -> StoreTransaction {
        guard let account = transactionAccounts[originalTransactionId],
              let original = accounts[account]?.transaction(originalTransactionId) else { throw unknown(originalTransactionId) }
        guard original.originalTransactionId == original.transactionId else {
            throw SandboxError(.invalidRequest, "transaction \(originalTransactionId) is not an original transaction (its original is \(original.originalTransactionId))")
        }
        let chain = accounts[account]?.chains.first { $0.value.originalTransactionId == originalTransactionId }
        var target = chain.flatMap { accounts[account]?.transaction($0.value.latestTransactionId) } ?? original
        target.appAccountToken = token
        target.resign(at: now)
        let updated = target
        let now = self.now
        withAccount(account) { record in
            record.replace(updated)
            if let group = chain?.key {
                record.chains[group]?.renewalInfo.appAccountToken = token
                record.chains[group]?.renewalInfo.resign(at: now)
            }
        }
        log(.appAccountTokenSet, account: account, transaction: updated, detail: token)
        return updated
    }

    /// The transactions whose order ID is `orderId`, with their account (Look Up Order ID).
    public func transactions(orderId: String) -> [StoreTransaction] {
        var found: [StoreTransaction] = []
        for name in accountNames {
            guard let record = accounts[name] else { continue }
            for (id, order) in record.orderIds where order == orderId {
                if let transaction = record.transaction(id) { found.append(transaction) }
            }
        }
        return found.sorted { $0.purchaseDate < $1.purchaseDate }
    }

    /// The order ID of a transaction.
    public func orderId(transactionId: String) -> String? {
        transactionAccounts[transactionId].flatMap { accounts[$0]?.orderIds[transactionId] }
    }
}
