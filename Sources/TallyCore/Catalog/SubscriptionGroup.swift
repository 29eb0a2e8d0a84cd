/// A subscription group: products of different levels of which a customer holds one at a time.
public struct SubscriptionGroup: Sendable, Hashable, Codable, Identifiable {
    /// The group id (`subscriptionGroupIdentifier` on transactions).
    public var id: String
    /// The reference name.
    public var name: String
    /// The ids of the group's products, in file order.
    public var productIds: [String]
    /// The group's localized display names (`localizations`), used by StoreKit views; often empty.
    public var localizations: [CatalogProduct.Localization]

    /// Creates a group.
    public init(id: String, name: String, productIds: [String], localizations: [CatalogProduct.Localization] = []) {
        self.id = id
        self.name = name
        self.productIds = productIds
        self.localizations = localizations
    }
}
