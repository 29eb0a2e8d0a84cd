import Foundation


/// How a purchase ended at the backend.
public enum BackendPurchaseResult: Sendable, Hashable {
    /// Bought (or already owned); the transaction is not finished yet.
    case purchased(TransactionUpdate)
    /// Waiting for Ask to Buy approval or an interruption; the id comes back with the transaction.
    case pending(purchaseId: String)
    /// The customer cancelled.
    case cancelled
}
