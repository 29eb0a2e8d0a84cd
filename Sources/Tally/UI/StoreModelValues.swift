import Foundation
import TallyCore


/// What a SwiftUI model shows: one value, so ``StoreModel`` (Observation) and ``ObservableStoreModel`` (Combine)
/// keep the same fields and each change is one write.
struct StoreModelValues: Sendable {
    var products: [StoreProduct] = []
    var invalidProductIds: [String] = []
    var state: CustomerState
    var pendingPurchases: [PendingPurchase]
    var canMakePayments: Bool
    var stateSource: StateSource
    var lastEvent: StoreEvent?
    var lastError: StoreError?
    /// The offerings loaded by `loadOfferings(placement:)`; nil before.
    var offerings: StoreOfferings?
    /// The placement they were loaded for.
    var offeringsPlacement: String?
    /// The customer the store speaks for (``Store/appUserId``) and whether it is anonymous.
    var appUserId: String?
    var isAnonymous = false

    /// The store's state, pending purchases and payments flag as of now.
    static func read(_ store: Store) async -> StoreModelValues {
        StoreModelValues(state: await store.state, pendingPurchases: await store.pendingPurchases,
                         canMakePayments: await store.canMakePayments, stateSource: await store.stateSource,
                         appUserId: await store.appUserId, isAnonymous: await store.isAnonymous)
    }
}

/// The model logic both SwiftUI models share: each is a thin shell holding ``StoreModelValues`` where its
/// observation machinery sees the writes, and forwarding every call here.
@MainActor
protocol StoreModelShell: AnyObject, Sendable {
    /// The engine behind the model.
    var store: Store { get }
    /// The observed values.
    var values: StoreModelValues { get set }
}

extension StoreModelShell {
    /// Updates the values on the main actor after each of `events` until the model is released.
    func listen(to events: AsyncStream<StoreEvent>) -> StoreSubscription {
        StoreSubscription(task: Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.handle(event)
            }
        })
    }

    func loadProductsNow(_ ids: [String]) async {
        do {
            let result = try await store.products(ids)
            values.products = result.products
            values.invalidProductIds = result.invalidProductIds
        } catch {
            values.lastError = error
        }
    }

    /// Shows the kept offerings for `placement` at once, then the server's answer.
    func loadOfferingsNow(placement: String?) async {
        values.offeringsPlacement = placement
        values.offerings = await store.cachedOfferings(placement: placement)
        values.offerings = await store.offerings(placement: placement)
    }

    func purchaseNow(_ product: StoreProduct, quantity: Int, context: PurchaseContext) async -> PurchaseOutcome? {
        do {
            let outcome = try await store.purchase(product, quantity: quantity, context: context)
            await reloadNow()
            return outcome
        } catch {
            values.lastError = error
            return nil
        }
    }

    func spendNow(_ amount: Decimal, of currency: String, id: String) async -> Bool? {
        do {
            let spent = try await store.spend(amount, of: currency, id: id)
            await reloadNow()
            return spent
        } catch {
            values.lastError = error
            return nil
        }
    }

    func restoreNow() async -> Int? {
        do {
            let restored = try await store.restore()
            await reloadNow()
            return restored.count
        } catch {
            values.lastError = error
            return nil
        }
    }

    func refreshSubscriptionStatusNow() async {
        do {
            let state = try await store.refreshSubscriptionStatus()
            let pending = await store.pendingPurchases
            values.state = state
            values.pendingPurchases = pending
        } catch {
            values.lastError = error
        }
    }

    func switchCustomerNow(to appUserId: String) async -> CustomerSwitch? {
        do {
            let change = try await store.switchCustomer(to: appUserId)
            await reloadNow()
            return change
        } catch {
            values.lastError = error
            return nil
        }
    }

    func logInNow(_ appUserId: String) async -> CustomerSwitch? {
        do {
            let change = try await store.logIn(appUserId)
            await reloadNow()
            return change
        } catch {
            values.lastError = error
            return nil
        }
    }

    func logOutNow() async -> String? {
        do {
            let fresh = try await store.logOut()
            await reloadNow()
            return fresh
        } catch {
            values.lastError = error
            return nil
        }
    }

    func setAttributesNow(_ attributes: [String: String]) async -> Bool {
        do {
            try await store.setAttributes(attributes)
            return true
        } catch {
            values.lastError = error
            return false
        }
    }

    func reloadNow() async {
        let state = await store.refresh()
        let stateSource = await store.stateSource
        let pending = await store.pendingPurchases
        let canMakePayments = await store.canMakePayments
        let appUserId = await store.appUserId, isAnonymous = await store.isAnonymous
        // `refresh()` asked again for the placement loaded; its answer is the store's last one.
        if values.offerings != nil {
            values.offerings = await store.cachedOfferings(placement: values.offeringsPlacement)
        }
        values.state = state
        values.stateSource = stateSource
        values.pendingPurchases = pending
        values.canMakePayments = canMakePayments
        values.appUserId = appUserId
        values.isAnonymous = isAnonymous
    }

    private func handle(_ event: StoreEvent) async {
        let state = await store.state
        let stateSource = await store.stateSource
        let pending = await store.pendingPurchases
        let appUserId = await store.appUserId, isAnonymous = await store.isAnonymous
        // Every read above: nothing suspends between the copy and the write, so no change made meanwhile is lost.
        var next = values
        next.lastEvent = event
        if case .failed(_, let reason) = event { next.lastError = reason }
        if case .offeringsChanged(let offerings) = event, next.offerings != nil,
           (offerings.placement ?? "").hasSameBytes(as: next.offeringsPlacement ?? ""),
           (offerings.placement == nil) == (next.offeringsPlacement == nil) {
            next.offerings = offerings
        }
        next.state = state
        next.stateSource = stateSource
        next.pendingPurchases = pending
        next.appUserId = appUserId
        next.isAnonymous = isAnonymous
        values = next
    }
}
