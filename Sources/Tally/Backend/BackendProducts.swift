import TallyCore


/// A backend's answer to a product request.
public struct BackendProducts: Sendable, Hashable {
    /// The products found, in the order asked.
    public var products: [Product]
    /// The ids the store does not know, in the order asked.
    public var invalidProductIds: [String]

    /// Creates an answer.
    public init(products: [Product], invalidProductIds: [String]) {
        self.products = products
        self.invalidProductIds = invalidProductIds
    }
}
