import TallyCore

/// The products the harness sells: the Market example's coins (a consumable crediting 10 coins) and
/// premium (a non-consumable unlocking the `premium` feature).
enum HarnessCatalog {
    static let coins = "market.coins.10"
    static let premium = "market.premium"

    static let catalog = Catalog(products: [
        CatalogProduct(id: coins, kind: .consumable, price: 0.99, currency: "USD"),
        CatalogProduct(id: premium, kind: .nonConsumable, price: 4.99, currency: "USD"),
    ])

    static let configuration = AppConfiguration(
        bundleId: "com.example.market", entitlements: ["premium": [premium]], currencies: ["coins": [coins: 10]])
}
