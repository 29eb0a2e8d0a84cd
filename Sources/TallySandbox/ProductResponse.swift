import TallyCore

/// The answer to a product request: the products found, and the ids the store does not know.
public struct ProductResponse: Sendable, Codable, Hashable {
    /// Known products, in the order asked, each once.
    public var products: [CatalogProduct]
    /// Ids not in the catalog, in the order asked, each once.
    public var invalidIdentifiers: [String]

    /// Creates a response.
    public init(products: [CatalogProduct], invalidIdentifiers: [String]) {
        self.products = products
        self.invalidIdentifiers = invalidIdentifiers
    }
}
