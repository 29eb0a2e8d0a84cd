import Foundation

/// A purchase that waits for someone: a parent (Ask to Buy) or the customer (interrupted purchase).
public struct PendingPurchase: Sendable, Codable, Hashable {
    /// Why the purchase waits.
    public enum Reason: String, Sendable, Codable, Hashable, CaseIterable {
        /// Waiting for a parent's approval; see ``Sandbox/approve(purchaseId:)``.
        case askToBuy
        /// Interrupted (e.g. terms to accept); see ``Sandbox/resolveInterrupted(purchaseId:)``.
        case interrupted
    }

    /// The sandbox's id for the waiting purchase.
    public var purchaseId: String
    /// The product asked for.
    public var productId: String
    /// The buying account.
    public var account: String
    /// The device the purchase was made on.
    public var device: String
    /// How many (consumables).
    public var quantity: Int
    /// Why it waits.
    public var reason: Reason
    /// When it was asked for.
    public var createdDate: Date
    /// The UUID the app linked to the purchase.
    public var appAccountToken: String?
    /// The offer the purchase was checked for, applied when it completes.
    var offerGrant: OfferGrant?

    /// Creates a pending purchase.
    public init(purchaseId: String, productId: String, account: String, device: String, quantity: Int,
                reason: Reason, createdDate: Date, appAccountToken: String? = nil) {
        self.purchaseId = purchaseId
        self.productId = productId
        self.account = account
        self.device = device
        self.quantity = quantity
        self.reason = reason
        self.createdDate = createdDate
        self.appAccountToken = appAccountToken
    }
}
