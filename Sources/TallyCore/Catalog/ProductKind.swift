/// The four kinds of in-app purchase.
public enum ProductKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Used once and bought again ("10 coins").
    case consumable
    /// Bought once, owned forever ("premium", "remove ads").
    case nonConsumable
    /// A subscription the App Store renews each period.
    case autoRenewable
    /// A subscription of fixed length that the app tracks.
    case nonRenewing

    /// The `type` Apple writes on a transaction of this kind.
    public var transactionType: ProductType {
        switch self {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .autoRenewable: .autoRenewable
        case .nonRenewing: .nonRenewing
        }
    }
}
