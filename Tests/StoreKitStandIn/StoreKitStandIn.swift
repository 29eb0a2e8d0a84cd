/// A stand-in for StoreKit's names that clash with Tally's, so a test can compile an app file that imports
/// both on Linux (where StoreKit does not exist). Only the names and a little shape, nothing of StoreKit's
/// behaviour.

/// Stands in for `StoreKit.Transaction`.
public struct Transaction: Sendable, Hashable {
    /// The transaction id, as StoreKit's `UInt64`.
    public var id: UInt64
    /// The product bought.
    public var productID: String

    /// Creates a stand-in transaction.
    public init(id: UInt64, productID: String) {
        self.id = id
        self.productID = productID
    }
}

/// Stands in for `StoreKit.Product`.
public struct Product: Sendable, Hashable {
    /// The product id.
    public var id: String
    /// The localized price.
    public var displayPrice: String

    /// Creates a stand-in product.
    public init(id: String, displayPrice: String) {
        self.id = id
        self.displayPrice = displayPrice
    }
}
