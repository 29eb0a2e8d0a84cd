import Foundation
import Observation
import TallyCore


/// The store for SwiftUI: products and the customer's state as observable properties, updated on the main
/// actor after every event (the launch's events included: they are replayed to every subscriber).
@MainActor
@Observable
public final class StoreModel {
    /// The products loaded by ``loadProducts(_:)``, in the order asked.
    public private(set) var products: [StoreProduct] = []
    /// Ids the store does not sell.
    public private(set) var invalidProductIds: [String] = []
    /// What the customer owns, read before the model is returned and refreshed after every event.
    public private(set) var state: CustomerState
    /// Purchases waiting for Ask to Buy approval.
    public private(set) var pendingPurchases: [PendingPurchase]
    /// Whether this account may buy (StoreKit's `AppStore.canMakePayments`); hide the buy buttons when false.
    /// Read at creation and by ``reload()``.
    public private(set) var canMakePayments: Bool
    /// Where ``state`` comes from (``Store/stateSource``): show an "offline" mark unless it is `.server` or `.local`.
    public private(set) var stateSource: StateSource
    /// The latest event.
    public private(set) var lastEvent: StoreEvent?
    /// The latest failure, for an alert.
    public private(set) var lastError: StoreError?

    /// The engine behind the model.
    @ObservationIgnored public let store: Store
    @ObservationIgnored private var subscription: StoreSubscription?

    /// A model over `store`: listens to its events, then reads the state, pending purchases and
    /// ``canMakePayments``, so the first look at ``state`` is already the customer's.
    public init(store: Store) async {
        self.store = store
        let events = store.events()
        state = await store.state
        stateSource = await store.stateSource
        pendingPurchases = await store.pendingPurchases
        canMakePayments = await store.canMakePayments
        subscription = StoreSubscription(task: Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.handle(event)
            }
        })
    }

    /// Whether a feature is active in the current ``state``.
    public func isEntitled(_ feature: String) -> Bool {
        state.isEntitled(feature)
    }

    /// Loads products; failures land in ``lastError``.
    public func loadProducts(_ ids: [String]) async {
        do {
            let result = try await store.products(ids)
            products = result.products
            invalidProductIds = result.invalidProductIds
        } catch {
            lastError = error
        }
    }

    /// Buys a product; nil when it failed (see ``lastError``).
    @discardableResult
    public func purchase(_ product: StoreProduct, quantity: Int = 1,
                         context: PurchaseContext = PurchaseContext()) async -> PurchaseOutcome? {
        do {
            let outcome = try await store.purchase(product, quantity: quantity, context: context)
            await reload()
            return outcome
        } catch {
            lastError = error
            return nil
        }
    }

    /// Spends virtual currency (see ``Store/spend(_:of:id:)``): true when spent now, false when `id` was
    /// already spent, nil when refused or failed (see ``lastError``; `insufficientBalance` when short).
    @discardableResult
    public func spend(_ amount: Decimal, of currency: String, id: String) async -> Bool? {
        do {
            let spent = try await store.spend(amount, of: currency, id: id)
            await reload()
            return spent
        } catch {
            lastError = error
            return nil
        }
    }

    /// Restores purchases; returns how many transactions came back (0 is a normal answer), nil when it failed
    /// (see ``lastError``).
    @discardableResult
    public func restore() async -> Int? {
        do {
            let restored = try await store.restore()
            await reload()
            return restored.count
        } catch {
            lastError = error
            return nil
        }
    }

    /// Asks the store for the subscriptions' renewal info (see ``Store/refreshSubscriptionStatus()``) and
    /// updates ``state``; failures land in ``lastError`` and leave the state as it was.
    public func refreshSubscriptionStatus() async {
        do {
            state = try await store.refreshSubscriptionStatus()
            pendingPurchases = await store.pendingPurchases
        } catch {
            lastError = error
        }
    }

    /// Logs in or out with a server link (``Store/switchCustomer(to:appAccountToken:)``): what the server's
    /// ownership policy did with this device's purchases, nil when it failed (see ``lastError``).
    @discardableResult
    public func switchCustomer(to appUserId: String) async -> CustomerSwitch? {
        do {
            let change = try await store.switchCustomer(to: appUserId)
            await reload()
            return change
        } catch {
            lastError = error
            return nil
        }
    }

    /// Reads the state, pending purchases and ``canMakePayments`` again.
    public func reload() async {
        state = await store.refresh()
        stateSource = await store.stateSource
        pendingPurchases = await store.pendingPurchases
        canMakePayments = await store.canMakePayments
    }

    private func handle(_ event: StoreEvent) async {
        lastEvent = event
        if case .failed(_, let reason) = event { lastError = reason }
        state = await store.state
        stateSource = await store.stateSource
        pendingPurchases = await store.pendingPurchases
    }
}
