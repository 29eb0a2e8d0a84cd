import Foundation
import TallyCore

extension Sandbox {
    /// Apple refunds a transaction: the record gains `revocationDate` = now, the reason and `REFUND_FULL`,
    /// replaces the old record in history, and is delivered again (unfinished) to every device of the account.
    /// Refunding a subscription's current transaction revokes the subscription and turns auto-renew off.
    /// `percentage` (milliunits refunded, 1–99999) makes it a prorated refund: `REFUND_PRORATED` with
    /// `revocationPercentage`, the transaction revoked all the same.
    public mutating func refund(transactionId: String, reason: RevocationReason = .other,
                                percentage: Int? = nil) throws(SandboxError) -> StoreTransaction {
        guard let account = transactionAccounts[transactionId],
              var transaction = accounts[account]?.transaction(transactionId) else {
            throw SandboxError(.unknownTransaction, "no transaction '\(transactionId)' in this sandbox: list them with 'tally sandbox history --account ACCOUNT'")
        }
        guard !transaction.isRevoked else {
            throw SandboxError(.alreadyResolved, "transaction '\(transactionId)' was already refunded")
        }
        transaction.revocationDate = now
        transaction.revocationReason = reason
        transaction.revocationType = percentage == nil ? .refundFull : .refundProrated
        transaction.revocationPercentage = percentage
        transaction.resign(at: now)
        let updated = transaction
        withAccount(account) { $0.replace(updated) }
        log(.refunded, account: account, transaction: transaction, detail: "reason \(reason.rawValue)")
        if let group = transaction.subscriptionGroupIdentifier,
           let chain = accounts[account]?.chains[group], chain.latestTransactionId.hasSameBytes(as: transactionId) {
            let wasOn = chain.renewalInfo.autoRenewStatus == .on
            let now = self.now
            withAccount(account) { record in
                record.chains[group]?.phase = .revoked
                record.chains[group]?.inGrace = false
                record.chains[group]?.retryEnd = nil
                record.chains[group]?.renewalInfo.autoRenewStatus = .off
                record.chains[group]?.renewalInfo.resign(at: now)
            }
            if wasOn {
                log(.autoRenewChanged, account: account, transaction: transaction, detail: "AUTO_RENEW_DISABLED")
            }
        }
        deliverToAllDevices(transactionId, account: account)
        return transaction
    }
}
