/// The answer to ``Store/products(_:)``.
public struct ProductsResult: Sendable, Hashable {
    /// The products found, in the order asked.
    public var products: [StoreProduct]
    /// The ids the store does not sell, in the order asked: check them against App Store Connect.
    public var invalidProductIds: [String]

    /// Creates a result.
    public init(products: [StoreProduct], invalidProductIds: [String]) {
        self.products = products
        self.invalidProductIds = invalidProductIds
    }
}
