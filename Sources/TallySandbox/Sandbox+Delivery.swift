import Foundation
import TallyCore

extension Sandbox {
    /// Transactions delivered to this device and not yet finished there, oldest delivery first, each in its
    /// latest form. Delivered again on every call until ``finish(transactionId:account:device:)``.
    public func unfinished(account: String = "default", device: String = "default") -> [StoreTransaction] {
        guard let record = accounts[account], let waiting = record.unfinished[device] else { return [] }
        return waiting.sorted { $0.value < $1.value }.compactMap { record.transaction($0.key) }
    }

    /// The app on this device finished a transaction; unknown or already finished ids are ignored.
    public mutating func finish(transactionId: String, account: String = "default", device: String = "default") {
        let removed = withAccount(account) { record in
            record.unfinished[device]?.removeValue(forKey: transactionId) != nil
        }
        guard removed else { return }
        log(.finished, account: account, device: device, transaction: accounts[account]?.transaction(transactionId))
    }

    /// Restores purchases on a device (`AppStore.sync()`): owned non-consumables, the latest transaction of each
    /// subscription chain and non-renewing purchases, in purchase order — never consumables. Nothing to restore
    /// gives []. May fail by an injected fault.
    public mutating func restore(account: String = "default",
                                 device: String = "default") throws(SandboxError) -> [StoreTransaction] {
        if let failure = settings.takeFault(.restore) {
            let error = failure.error(for: .restore)
            log(failure == .cancelled ? .cancelled : .failed, account: account, device: device, detail: error.message)
            throw error
        }
        withAccount(account) { $0.connect(device) }
        let restored = restorable(account: account)
        log(.restored, account: account, device: device, detail: "\(restored.count) transactions")
        return restored
    }

    /// What a restore returns for the account.
    private func restorable(account: String) -> [StoreTransaction] {
        guard let record = accounts[account] else { return [] }
        let latest = Set(record.chains.values.map(\.latestTransactionId))
        return record.transactions.filter { transaction in
            switch transaction.type {
            case .nonConsumable: record.ownedNonConsumables[transaction.productId] == transaction.transactionId
            case .nonRenewing: !transaction.isRevoked
            case .autoRenewable: latest.contains(transaction.transactionId)
            default: false
            }
        }
    }
}
