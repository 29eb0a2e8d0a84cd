import Foundation
import TallyCore


/// Everything the customer file holds: the purchase history (transactions by id, renewal infos, spends),
/// the ids delivered and finished, and the pending purchases with their context.
struct CustomerRecord: Sendable, Hashable, Codable {
    /// The format this version of Tally writes: 2 keeps each transaction's signed form (1 did not).
    static let currentFormatVersion = 2
    /// The file format; bumped on incompatible changes.
    var formatVersion = currentFormatVersion
    /// One copy per transaction id (a refunded copy wins), in arrival order, each with its signed form.
    var transactions = TransactionTable()
    /// Original transaction id → the latest renewal info of that chain.
    var renewalInfos: [String: RenewalInfo] = [:]
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
        let infos = renewalInfos.values.sorted { $0.originalTransactionId < $1.originalTransactionId }
        return PurchaseHistory(transactions: transactions.all, renewalInfos: infos, spends: spends)
    }

    /// Applies one journal entry. Applying the same entries again gives the same record, so a journal
    /// replayed over a snapshot that already holds it changes nothing.
    mutating func apply(_ entry: JournalEntry) {
        switch entry {
        case .transaction(let transaction, let jwsRepresentation):
            transactions.merge(transaction, jwsRepresentation: jwsRepresentation)
        case .renewalInfo(let info):
            renewalInfos[info.originalTransactionId] = info
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
