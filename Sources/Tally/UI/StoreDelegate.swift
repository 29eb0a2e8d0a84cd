import Foundation
import TallyCore


/// A delegate for UIKit apps built the way the classic `IAPManager` tutorials are: the store tells it what happened,
/// one method per outcome. Every method has an empty default, so a delegate implements only what it shows.
///
/// Threading: every method is called on the main actor (the main thread), in the order the store emitted the
/// events, so a view controller may update its views directly. The calls come from ``Store/events()`` (the same
/// events, the launch's replayed ones included) after each effect is durably written; a delegate that is slow
/// holds up only its own later calls, never the store.
@MainActor
public protocol StoreDelegate: AnyObject {
    /// A purchase was delivered (bought here, an Ask to Buy approved, a purchase made on another device, or an
    /// unfinished one at launch); unlock what `transaction.productId` sells. `context` is the purchase call's, nil
    /// when unknown.
    func store(_ store: Store, didPurchase transaction: StoreTransaction, context: PurchaseContext?)
    /// A purchase, a restore or a delivery failed; `productId` is nil when it concerned no one product.
    func store(_ store: Store, didFailWith error: StoreError, productId: String?)
    /// A restore finished; `count` transactions came back (0 is a normal answer: "nothing to restore").
    func store(_ store: Store, didRestore count: Int)
    /// A purchase waits for Ask to Buy approval: show it as pending, nothing was charged yet.
    func store(_ store: Store, isWaitingForApprovalOf purchase: PendingPurchase)
    /// A transaction was refunded or revoked: lock what it unlocked.
    func store(_ store: Store, didRevoke transaction: StoreTransaction)
    /// A currency's balance changed (bought, spent, clawed back).
    func store(_ store: Store, didChangeBalanceOf currency: String, to balance: Decimal)
    /// The customer cancelled a purchase (not a failure): stop the purchase's spinner.
    func store(_ store: Store, didCancelPurchaseOf productId: String)
    /// Every event, after the method above that matches it (if any): for what no method names (renewals, expiry,
    /// billing retry, entitlement changes, …).
    func store(_ store: Store, didEmit event: StoreEvent)
}

extension StoreDelegate {
    /// Does nothing.
    public func store(_ store: Store, didPurchase transaction: StoreTransaction, context: PurchaseContext?) {}
    /// Does nothing.
    public func store(_ store: Store, didFailWith error: StoreError, productId: String?) {}
    /// Does nothing.
    public func store(_ store: Store, didRestore count: Int) {}
    /// Does nothing.
    public func store(_ store: Store, isWaitingForApprovalOf purchase: PendingPurchase) {}
    /// Does nothing.
    public func store(_ store: Store, didRevoke transaction: StoreTransaction) {}
    /// Does nothing.
    public func store(_ store: Store, didChangeBalanceOf currency: String, to balance: Decimal) {}
    /// Does nothing.
    public func store(_ store: Store, didCancelPurchaseOf productId: String) {}
    /// Does nothing.
    public func store(_ store: Store, didEmit event: StoreEvent) {}
}

extension Store {
    /// Sends the store's events to `delegate` on the main actor (see ``StoreDelegate`` for the threading) until the
    /// returned subscription is cancelled or released, or the delegate is deallocated: the store holds the delegate
    /// weakly, as UIKit's delegates are held. Keep the subscription (in the app delegate or the view controller);
    /// call this right after creating the store to get the launch's events.
    @MainActor
    public func setDelegate(_ delegate: some StoreDelegate) -> StoreSubscription {
        let events = events()
        return StoreSubscription(task: Task { @MainActor [weak delegate] in
            for await event in events {
                guard let delegate else { return }
                self.deliver(event, to: delegate)
            }
        })
    }

    @MainActor
    private func deliver(_ event: StoreEvent, to delegate: some StoreDelegate) {
        switch event {
        case .purchased(let transaction, let context):
            delegate.store(self, didPurchase: transaction, context: context)
        case .failed(let productId, let reason):
            delegate.store(self, didFailWith: reason, productId: productId)
        case .restored(let count):
            delegate.store(self, didRestore: count)
        case .pending(let purchase):
            delegate.store(self, isWaitingForApprovalOf: purchase)
        case .revoked(let transaction):
            delegate.store(self, didRevoke: transaction)
        case .balanceChanged(let currency, let balance):
            delegate.store(self, didChangeBalanceOf: currency, to: balance)
        case .cancelled(let productId):
            delegate.store(self, didCancelPurchaseOf: productId)
        default:
            break
        }
        delegate.store(self, didEmit: event)
    }
}
