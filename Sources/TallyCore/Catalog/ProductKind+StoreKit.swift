extension ProductKind {
    /// The `type` string Xcode writes for this kind in a .storekit file.
    public var storeKitType: String {
        switch self {
        case .consumable: "Consumable"
        case .nonConsumable: "NonConsumable"
        case .nonRenewing: "NonRenewingSubscription"
        case .autoRenewable: "RecurringSubscription"
        }
    }
}
