import Foundation
import TallyCore


/// A change to another subscription of the same group that takes effect at the next renewal (a downgrade, or a
/// crossgrade to another period length), as buying that product while subscribed makes it. Until then the
/// subscription in force (``transaction``) keeps its product and its entitlements.
public struct ScheduledChange: Sendable, Hashable {
    /// The product the subscription renews as.
    public var productId: String
    /// The product in force until then.
    public var currentProductId: String
    /// The subscription group.
    public var groupId: String
    /// What kind of change (`SubscriptionChange.downgrade` or `SubscriptionChange.crossgradeAtRenewal`).
    public var change: SubscriptionChange
    /// When it takes effect: the next renewal date, nil when the store did not say.
    public var date: Date?
    /// The latest transaction of the subscription in force.
    public var transaction: StoreTransaction

    /// Creates a scheduled change.
    public init(productId: String, currentProductId: String, groupId: String, change: SubscriptionChange,
                date: Date?, transaction: StoreTransaction) {
        self.productId = productId
        self.currentProductId = currentProductId
        self.groupId = groupId
        self.change = change
        self.date = date
        self.transaction = transaction
    }
}
