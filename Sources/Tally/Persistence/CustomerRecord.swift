import Foundation
import TallyCore


/// Everything the customer file holds: the purchase history (transactions by id, renewal infos, spends),
/// the ids delivered and finished, and the pending purchases with their context.
struct CustomerRecord: Sendable, Hashable, Codable {
    /// The format this version of Tally writes: 3 keeps each renewal info's signed form, 2 each transaction's
    /// (1 neither). Older files still load; what they hold unsigned counts for nothing.
    static let currentFormatVersion = 3
    /// The file format; bumped on incompatible changes.
    var formatVersion = currentFormatVersion
    /// One copy per transaction id (a refunded copy wins), in arrival order, each with its signed form.
    var transactions = TransactionTable()
    /// Original transaction id → the latest renewal info of that chain, with its signed form.
    var renewalInfos: [String: StoredRenewalInfo] = [:]
    /// Accepted spends, in order.
    var spends: [Spend] = []
    /// Transactions delivered and announced: finished with the backend, or restored.
    var finished: Set<String> = []
    /// Purchase id → a purchase waiting for approval.
    var pending: [String: PendingPurchase] = [:]
    /// True after a damaged file was moved aside until a restore from the store succeeds.
    var needsRestore = false

    /// The history the ownership rules read: transactions in arrival order, spends in order.
    var history: PurchaseHistory {
        let infos = renewalInfos.values.map(\.renewalInfo).sorted { $0.originalTransactionId < $1.originalTransactionId }
        return PurchaseHistory(transactions: transactions.all, renewalInfos: infos, spends: spends)
    }

    /// Applies one journal entry. Applying the same entries again gives the same record, so a journal
    /// replayed over a snapshot that already holds it changes nothing.
    mutating func apply(_ entry: JournalEntry) {
        switch entry {
        case .transaction(let transaction, let jwsRepresentation):
            transactions.merge(transaction, jwsRepresentation: jwsRepresentation)
        case .renewalInfo(let info, let jwsRepresentation):
            renewalInfos[info.originalTransactionId] = StoredRenewalInfo(renewalInfo: info,
                                                                         jwsRepresentation: jwsRepresentation)
        case .spend(let spend):
            if !spends.contains(where: { $0.id == spend.id }) { spends.append(spend) }
        case .finished(let transactionId):
            finished.insert(transactionId)
        case .pending(let purchase):
            pending[purchase.id] = purchase
        case .resolved(let purchaseId):
            pending.removeValue(forKey: purchaseId)
        case .restored(let needsRestore):
            self.needsRestore = needsRestore
        }
    }
}
