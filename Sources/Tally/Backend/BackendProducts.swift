import TallyCore


/// A backend's answer to a product request.
public struct BackendProducts: Sendable, Hashable {
    /// The products found, in the order asked.
    public var products: [Product]
    /// The ids the store does not know, in the order asked.
    public var invalidProductIds: [String]
    /// The store's own formatted prices by product id (StoreKit's `displayPrice`), shown instead of the engine's
    /// formatting of ``Product/price``; a product without one is formatted for the store's locale.
    public var displayPrices: [String: String]

    /// Creates an answer.
    public init(products: [Product], invalidProductIds: [String], displayPrices: [String: String] = [:]) {
        self.products = products
        self.invalidProductIds = invalidProductIds
        self.displayPrices = displayPrices
    }
}
