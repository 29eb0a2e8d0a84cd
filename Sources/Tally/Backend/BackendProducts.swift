import TallyCore


/// A backend's answer to a product request.
public struct BackendProducts: Sendable, Hashable {
    /// The products found, in the order asked.
    public var products: [CatalogProduct]
    /// The ids the store does not know, in the order asked.
    public var invalidProductIds: [String]
    /// The store's own formatted prices by product id (StoreKit's `displayPrice`), shown instead of the engine's
    /// formatting of `CatalogProduct.price`; a product without one is formatted for the store's locale.
    public var displayPrices: [String: String]
    /// Subscription groups whose introductory offer the store says this customer can no longer get (StoreKit's
    /// `isEligibleForIntroOffer` false), whatever this install's history shows: an offer used on another device.
    public var introOfferIneligibleGroups: Set<String>

    /// Creates an answer.
    public init(products: [CatalogProduct], invalidProductIds: [String], displayPrices: [String: String] = [:],
                introOfferIneligibleGroups: Set<String> = []) {
        self.products = products
        self.invalidProductIds = invalidProductIds
        self.displayPrices = displayPrices
        self.introOfferIneligibleGroups = introOfferIneligibleGroups
    }
}
