extension ProductKind {
    /// The kind a transaction counts as: its own `type` when Tally knows it, else the catalog product's kind;
    /// nil when neither says (an unknown type for a product the catalog lacks).
    static func of(_ type: ProductType, catalogKind: ProductKind?) -> ProductKind? {
        switch type.rawValue {
        case ProductType.autoRenewable.rawValue: .autoRenewable
        case ProductType.consumable.rawValue: .consumable
        case ProductType.nonConsumable.rawValue: .nonConsumable
        case ProductType.nonRenewing.rawValue: .nonRenewing
        default: catalogKind
        }
    }
}
