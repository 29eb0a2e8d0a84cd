import TallyCore


/// How ``Store/purchase(_:quantity:appAccountToken:context:)`` ended. Failures are thrown as ``StoreError``.
public enum PurchaseOutcome: Sendable, Hashable {
    /// Bought and delivered: the effect is written and the transaction finished.
    case purchased(Transaction)
    /// Waiting for Ask to Buy approval; the transaction comes later as a ``StoreEvent/purchased(_:context:)``
    /// event carrying this purchase's context.
    case pending(PendingPurchase)
    /// The customer cancelled: not an error.
    case cancelled
}
