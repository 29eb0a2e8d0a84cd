import TallyCore


/// How ``Store/purchase(_:quantity:appAccountToken:offer:context:)-(String,_,_,_,_)`` ended. Failures are thrown as ``StoreError``.
public enum PurchaseOutcome: Sendable, Hashable {
    /// Bought and delivered: the effect is written and the transaction finished. For a product already owned (a
    /// non-consumable, the subscription in force) this is the existing transaction, and no
    /// ``StoreEvent/purchased(_:context:)`` event is emitted again.
    case purchased(StoreTransaction)
    /// A downgrade (or a crossgrade to another period length) was scheduled for the next renewal: the
    /// subscription in force keeps its product until ``ScheduledChange/date``. Nothing was bought now.
    case changeScheduled(ScheduledChange)
    /// Buying the subscription in force again cancelled the change scheduled before (returned here): the
    /// subscription renews as its current product.
    case changeCancelled(ScheduledChange)
    /// Waiting for Ask to Buy approval; the transaction comes later as a ``StoreEvent/purchased(_:context:)``
    /// event carrying this purchase's context.
    case pending(PendingPurchase)
    /// The customer cancelled: not an error.
    case cancelled
}
