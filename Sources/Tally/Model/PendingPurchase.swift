import Foundation


/// A purchase waiting for Ask to Buy approval or an interruption to be resolved, kept in the customer file.
public struct PendingPurchase: Sendable, Hashable, Codable, Identifiable {
    /// The backend's purchase id.
    public var id: String
    /// The product asked for.
    public var productId: String
    /// How many.
    public var quantity: Int
    /// The UUID the app linked to the purchase.
    public var appAccountToken: UUID?
    /// What the app passed with the purchase.
    public var context: PurchaseContext
    /// When the purchase was asked for.
    public var date: Date
    /// With a ``ServerLink``, the customer it was asked for: its transaction is posted for that customer even
    /// when approved after a ``Store/switchCustomer(to:appAccountToken:)``. Nil without a link (or in a file
    /// written before Tally kept it: then the link's customer at approval).
    public var appUserId: String?

    /// Creates a pending purchase.
    public init(id: String, productId: String, quantity: Int, appAccountToken: UUID?, context: PurchaseContext,
                date: Date, appUserId: String? = nil) {
        self.id = id
        self.productId = productId
        self.quantity = quantity
        self.appAccountToken = appAccountToken
        self.context = context
        self.date = date
        self.appUserId = appUserId
    }
}
