import Foundation
import TallyCore


/// Something the store did, for the app to react to (what the tutorials' `purchasePublisher`, delegates and
/// completion blocks were for). Emitted only after the effect is durably written.
public enum StoreEvent: Sendable, Hashable {
    /// A purchase started.
    case purchasing(productId: String, context: PurchaseContext)
    /// A purchase was delivered; `context` is the app's context of the purchase call or of the pending
    /// purchase it completes (Ask to Buy approved, even after a restart), nil when unknown (another device).
    case purchased(StoreTransaction, context: PurchaseContext?)
    /// A purchase waits for Ask to Buy approval.
    case pending(PendingPurchase)
    /// The customer cancelled a purchase (not a failure).
    case cancelled(productId: String)
    /// A purchase, restore or delivery failed.
    case failed(productId: String?, reason: StoreError)
    /// A restore finished; `count` transactions came back (0 is a normal answer).
    case restored(count: Int)
    /// A transaction was refunded or revoked: its entitlement ends, its currency is clawed back.
    case revoked(StoreTransaction)
    /// A subscription renewed.
    case renewed(StoreTransaction)
    /// A subscription group ended: from subscribed, the grace period or billing retry (retry gave up) to expired.
    case expired(CustomerState.Subscription)
    /// A renewal failed and the store keeps retrying; the customer is not entitled (no grace period, or it ran
    /// out). Lock the feature; a successful retry comes as ``renewed(_:)``.
    case billingRetry(CustomerState.Subscription)
    /// A renewal failed but the grace period keeps the customer entitled until `gracePeriodExpiresDate`: ask the
    /// customer to fix the payment method.
    case gracePeriod(CustomerState.Subscription)
    /// The set of features of `tally.json` the customer is entitled to changed, for any reason (a purchase, a
    /// refund, an expiry, billing retry, a restore); names sorted.
    case entitlementsChanged(gained: [String], lost: [String])
    /// A downgrade or crossgrade was scheduled for the next renewal (see ``PurchaseOutcome/changeScheduled(_:)``).
    case changeScheduled(ScheduledChange)
    /// A scheduled change was cancelled by buying the subscription in force again.
    case changeCancelled(ScheduledChange)
    /// A currency balance changed.
    case balanceChanged(currency: String, balance: Decimal)
    /// The server of the ``ServerLink`` refused a transaction for good (`status` 422 or 409, the server's error
    /// `code` and `message`): it was finished with the store and is not posted again; see ``StoreDiagnostic/Kind/serverRefused``.
    case serverRefused(transactionId: String, status: Int, code: String, message: String)
    /// ``Store/switchCustomer(to:appAccountToken:)`` switched the store to another customer: what the server's
    /// ownership policy did with this device's restored purchases (transferred here, or kept by their owner).
    case customerSwitched(CustomerSwitch)
    /// A pending purchase ended without a transaction (a parent declined the Ask to Buy): it is no longer in
    /// ``Store/pendingPurchases``, nothing was charged, and it carries the purchase call's context.
    case declined(PendingPurchase)
    /// The offerings for a placement changed (``Store/offerings(placement:)``, asked again at ``Store/refresh()``):
    /// another document version, another choice, the server unreachable (kept copy) or back.
    case offeringsChanged(StoreOfferings)
}
