import TallyCore


/// A product as the app shows it: localized name, description and display price.
public struct StoreProduct: Sendable, Hashable, Identifiable {
    /// The product.
    public var product: CatalogProduct
    /// The name for the store's locale.
    public var displayName: String
    /// The description for the store's locale.
    public var description: String
    /// The price formatted for the store's locale (`"$0.99"`, `"0,99 €"`).
    public var displayPrice: String

    /// Whether buying it now would get its introductory offer (free trial, pay as you go, pay up front): an
    /// auto-renewable with an introductory offer, in a group where this customer has not had one yet. Always
    /// false for other products. ``Store/products(_:)`` sets it from the customer's history at the time of the
    /// call; ask again after a purchase or restore.
    public var isEligibleForIntroOffer: Bool

    /// The product id.
    public var id: String { product.id }

    /// Localizes `product` for `locale` (an identifier such as `en_US`); `isEligibleForIntroOffer` is true only
    /// when the product has an introductory offer.
    public init(_ product: CatalogProduct, locale: String, isEligibleForIntroOffer: Bool = false) {
        self.product = product
        self.isEligibleForIntroOffer = isEligibleForIntroOffer && product.subscription?.introductoryOffer != nil
        let localization = product.localization(for: locale)
        displayName = localization?.displayName ?? product.referenceName ?? product.id
        description = localization?.description ?? ""
        displayPrice = product.displayPrice(locale: locale)
    }
}
