import Foundation


/// What the engine asks a backend to buy.
public struct PurchaseRequest: Sendable, Hashable {
    /// The product id.
    public var productId: String
    /// How many (consumables); 1 for other products.
    public var quantity: Int
    /// The UUID the app links to the purchase (StoreKit's `appAccountToken` purchase option).
    public var appAccountToken: UUID?
    /// The subscription offer to apply, if any.
    public var offer: PurchaseOffer?

    /// Creates a request.
    public init(productId: String, quantity: Int = 1, appAccountToken: UUID? = nil, offer: PurchaseOffer? = nil) {
        self.productId = productId
        self.quantity = quantity
        self.appAccountToken = appAccountToken
        self.offer = offer
    }
}
