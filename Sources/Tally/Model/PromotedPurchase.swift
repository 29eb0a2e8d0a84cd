import Foundation

/// A purchase the customer started outside the app, in the App Store (a promoted in-app purchase: StoreKit's
/// `PurchaseIntent`, iOS 16.4+ / macOS 14.4+), waiting for the app to complete it. Answer it by buying the product
/// (`try await store.purchase(intent.productId)`) now, or later when the app is ready (after onboarding, say); an
/// intent not answered charges nothing.
public struct PromotedPurchase: Sendable, Hashable, Codable {
    /// The product the customer chose.
    public var productId: String
    /// The subscription offer promoted with it (StoreKit's `PurchaseIntent.offer`, iOS 18+), if any.
    public var offerId: String?

    /// Creates an intent.
    public init(productId: String, offerId: String? = nil) {
        self.productId = productId
        self.offerId = offerId
    }
}
