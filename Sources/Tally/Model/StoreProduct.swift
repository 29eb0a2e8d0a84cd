import TallyCore


/// A product as the app shows it: localized name, description and display price.
public struct StoreProduct: Sendable, Hashable, Identifiable {
    /// The product.
    public var product: Product
    /// The name for the store's locale.
    public var displayName: String
    /// The description for the store's locale.
    public var description: String
    /// The price formatted for the store's locale (`"$0.99"`, `"0,99 €"`).
    public var displayPrice: String

    /// The product id.
    public var id: String { product.id }

    /// Localizes `product` for `locale` (an identifier such as `en_US`).
    public init(_ product: Product, locale: String) {
        self.product = product
        let localization = product.localization(for: locale)
        displayName = localization?.displayName ?? product.referenceName ?? product.id
        description = localization?.description ?? ""
        displayPrice = product.displayPrice(locale: locale)
    }
}
