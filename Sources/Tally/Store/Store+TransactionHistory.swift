import Foundation
import TallyCore


extension Store {
    /// The customer's transactions as the store records them (StoreKit's `Transaction.all`; the sandbox's
    /// account history), each in its latest form (a refunded one with its revocation date), oldest purchase first.
    /// Only a transaction whose signed form the backend's verifier verifies, and that is for this app, is listed;
    /// any other is left out and reported (``StoreDiagnostic/Kind/unverifiedTransaction``). Read only: nothing is
    /// delivered, credited, finished or written (``history`` is what this device's customer file holds).
    ///
    /// StoreKit leaves out consumables already finished unless the app's Info.plist sets
    /// `SKIncludeConsumableInAppPurchaseHistory` (iOS 18 and later).
    /// - Throws: ``StoreError`` (`networkError`, `backend`) when the store cannot answer.
    public func transactionHistory() async throws(StoreError) -> [StoreTransaction] {
        let updates: [TransactionUpdate]
        do {
            updates = try await backend.allTransactions()
        } catch {
            throw StoreError.from(error, doing: "reading the transaction history")
        }
        var seen = Set<String>()
        var listed: [StoreTransaction] = []
        for update in updates {
            let transaction: StoreTransaction
            do { transaction = try verified(update) } catch {
                report(StoreDiagnostic(.unverifiedTransaction, "transaction history: \(error.message)"))
                continue
            }
            guard seen.insert(transaction.transactionId).inserted else { continue }
            listed.append(transaction)
        }
        return listed.sorted { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }
    }
}
