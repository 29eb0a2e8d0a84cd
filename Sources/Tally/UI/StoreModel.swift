import Foundation
import Observation
import TallyCore


/// The store for SwiftUI on iOS 17 / macOS 14 and later (Observation): products and the customer's state as
/// observable properties, updated on the main actor after every event (the launch's events included: they are
/// replayed to every subscriber). For iOS 15–16, ``ObservableStoreModel`` is the same model as an
/// `ObservableObject`; both forward to one implementation.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
@Observable
public final class StoreModel: StoreModelShell {
    /// The products loaded by ``loadProducts(_:)``, in the order asked.
    public var products: [StoreProduct] { values.products }
    /// Ids the store does not sell.
    public var invalidProductIds: [String] { values.invalidProductIds }
    /// What the customer owns, read before the model is returned and refreshed after every event.
    public var state: CustomerState { values.state }
    /// Purchases waiting for Ask to Buy approval.
    public var pendingPurchases: [PendingPurchase] { values.pendingPurchases }
    /// Whether this account may buy (StoreKit's `AppStore.canMakePayments`); hide the buy buttons when false.
    /// Read at creation and by ``reload()``.
    public var canMakePayments: Bool { values.canMakePayments }
    /// Where ``state`` comes from (``Store/stateSource``): show an "offline" mark unless it is `.server` or `.local`.
    public var stateSource: StateSource { values.stateSource }
    /// The customer the store speaks for (``Store/appUserId``); nil without a server link.
    public var appUserId: String? { values.appUserId }
    /// Whether that customer is anonymous (``Store/isAnonymous``): show "sign in" rather than the account.
    public var isAnonymous: Bool { values.isAnonymous }
    /// The latest event.
    public var lastEvent: StoreEvent? { values.lastEvent }
    /// The latest failure, for an alert.
    public var lastError: StoreError? { values.lastError }
    /// The offerings loaded by ``loadOfferings(placement:)`` (``Store/offerings(placement:)``): nil before; the
    /// kept copy first, then the server's answer; refreshed by ``reload()`` and when the store emits a change.
    public var offerings: StoreOfferings? { values.offerings }
    /// The offering to show on the paywall (``StoreOfferings/current``); nil before ``loadOfferings(placement:)``.
    public var currentOffering: StoreOffering? { values.offerings?.current }

    /// The engine behind the model.
    @ObservationIgnored public let store: Store
    /// Every observed value, written by the shared model logic.
    var values: StoreModelValues
    @ObservationIgnored private var subscription: StoreSubscription?

    /// A model over `store`: listens to its events, then reads the state, pending purchases and
    /// ``canMakePayments``, so the first look at ``state`` is already the customer's.
    public init(store: Store) async {
        self.store = store
        let events = store.events()
        values = await StoreModelValues.read(store)
        subscription = listen(to: events)
    }

    /// Whether a feature is active in the current ``state``.
    public func isEntitled(_ feature: String) -> Bool {
        state.isEntitled(feature)
    }

    /// Loads products; failures land in ``lastError``.
    public func loadProducts(_ ids: [String]) async {
        await loadProductsNow(ids)
    }

    /// Loads the offerings for `placement` into ``offerings``: the copy kept on the device at once (or the bundled
    /// catalog), then the server's answer. Never fails (see ``Store/offerings(placement:)``).
    public func loadOfferings(placement: String? = nil) async {
        await loadOfferingsNow(placement: placement)
    }

    /// Buys a product; nil when it failed (see ``lastError``).
    @discardableResult
    public func purchase(_ product: StoreProduct, quantity: Int = 1,
                         context: PurchaseContext = PurchaseContext()) async -> PurchaseOutcome? {
        await purchaseNow(product, quantity: quantity, context: context)
    }

    /// Spends virtual currency (see ``Store/spend(_:of:id:)``): true when spent now, false when `id` was
    /// already spent, nil when refused or failed (see ``lastError``; `insufficientBalance` when short).
    @discardableResult
    public func spend(_ amount: Decimal, of currency: String, id: String) async -> Bool? {
        await spendNow(amount, of: currency, id: id)
    }

    /// Restores purchases; returns how many transactions came back (0 is a normal answer), nil when it failed
    /// (see ``lastError``).
    @discardableResult
    public func restore() async -> Int? {
        await restoreNow()
    }

    /// Asks the store for the subscriptions' renewal info (see ``Store/refreshSubscriptionStatus()``) and
    /// updates ``state``; failures land in ``lastError`` and leave the state as it was.
    public func refreshSubscriptionStatus() async {
        await refreshSubscriptionStatusNow()
    }

    /// Logs in or out with a server link (``Store/switchCustomer(to:appAccountToken:)``): what the server's
    /// ownership policy did with this device's purchases, nil when it failed (see ``lastError``).
    @discardableResult
    public func switchCustomer(to appUserId: String) async -> CustomerSwitch? {
        await switchCustomerNow(to: appUserId)
    }

    /// Signs in (``Store/logIn(_:)``): the anonymous customer's purchases follow; nil when it failed (``lastError``).
    @discardableResult
    public func logIn(_ appUserId: String) async -> CustomerSwitch? {
        await logInNow(appUserId)
    }

    /// Signs out (``Store/logOut()``): the new anonymous id, nil when it failed (``lastError``).
    @discardableResult
    public func logOut() async -> String? {
        await logOutNow()
    }

    /// Sets the customer's attributes (``Store/setAttributes(_:)``); false when it failed (``lastError``).
    @discardableResult
    public func setAttributes(_ attributes: [String: String]) async -> Bool {
        await setAttributesNow(attributes)
    }

    /// Refreshes the store (``Store/refresh()``: the server's state, and the offerings loaded asked again), then
    /// reads the state, pending purchases, ``canMakePayments`` and ``offerings`` again.
    public func reload() async {
        await reloadNow()
    }
}
