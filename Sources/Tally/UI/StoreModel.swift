import Foundation
import Observation
import TallyCore


/// The store for SwiftUI: products and the customer's state as observable properties, updated on the main
/// actor after every event.
@MainActor
@Observable
public final class StoreModel {
    /// The products loaded by ``loadProducts(_:)``, in the order asked.
    public private(set) var products: [StoreProduct] = []
    /// Ids the store does not sell.
    public private(set) var invalidProductIds: [String] = []
    /// What the customer owns, refreshed after every event.
    public private(set) var state: CustomerState
    /// Purchases waiting for Ask to Buy approval.
    public private(set) var pendingPurchases: [PendingPurchase] = []
    /// The latest event.
    public private(set) var lastEvent: StoreEvent?
    /// The latest failure, for an alert.
    public private(set) var lastError: StoreError?

    /// The engine behind the model.
    @ObservationIgnored public let store: Store
    @ObservationIgnored private var subscription: StoreSubscription?

    /// A model over `store`, listening to its events at once.
    public init(store: Store) {
        self.store = store
        self.state = CustomerState(date: Date())
        let events = store.events()
        subscription = StoreSubscription(task: Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.handle(event)
            }
        })
        Task { await self.reload() }
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
            return try await store.purchase(product, quantity: quantity, context: context)
        } catch {
            lastError = error
            return nil
        }
    }

    /// Restores purchases; failures land in ``lastError``.
    public func restore() async {
        do { try await store.restore() } catch { lastError = error }
    }

    /// Reads the state and pending purchases again.
    public func reload() async {
        state = await store.refresh()
        pendingPurchases = await store.pendingPurchases
    }

    private func handle(_ event: StoreEvent) async {
        lastEvent = event
        if case .failed(_, let reason) = event { lastError = reason }
        state = await store.state
        pendingPurchases = await store.pendingPurchases
    }
}
