import Foundation
import TallyCore


/// Something the store did, for the app to react to (what the tutorials' `purchasePublisher`, delegates and
/// completion blocks were for). Emitted only after the effect is durably written.
public enum StoreEvent: Sendable, Hashable {
    /// A purchase started.
    case purchasing(productId: String, context: PurchaseContext)
    /// A purchase was delivered; `context` is the app's context of the purchase call or of the pending
    /// purchase it completes (Ask to Buy approved, even after a restart), nil when unknown (another device).
    case purchased(Transaction, context: PurchaseContext?)
    /// A purchase waits for Ask to Buy approval.
    case pending(PendingPurchase)
    /// The customer cancelled a purchase (not a failure).
    case cancelled(productId: String)
    /// A purchase, restore or delivery failed.
    case failed(productId: String?, reason: StoreError)
    /// A restore finished; `count` transactions came back (0 is a normal answer).
    case restored(count: Int)
    /// A transaction was refunded or revoked: its entitlement ends, its currency is clawed back.
    case revoked(Transaction)
    /// A subscription renewed.
    case renewed(Transaction)
    /// A subscription group went from entitled to expired.
    case expired(CustomerState.Subscription)
    /// A currency balance changed.
    case balanceChanged(currency: String, balance: Decimal)
    /// A pending purchase ended without a transaction (a parent declined the Ask to Buy): it is no longer in
    /// ``Store/pendingPurchases``, nothing was charged, and it carries the purchase call's context.
    case declined(PendingPurchase)
}
