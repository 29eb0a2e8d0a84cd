/// A catalog and an app configuration read once into what ``CustomerState`` needs (each product's kind, group
/// and period; each currency's rates), for a caller that computes many states with the same two — a server
/// computes one per request. `CustomerState(catalog:configuration:…)` builds one each time.
public struct CatalogRules: Sendable {
    /// The products.
    public let catalog: Catalog
    /// Entitlements, currencies and non-renewing durations.
    public let configuration: AppConfiguration
    let products: ProductLookup
    let rates: CurrencyRates

    /// Reads `catalog` and `configuration`.
    public init(catalog: Catalog, configuration: AppConfiguration) {
        self.catalog = catalog
        self.configuration = configuration
        products = ProductLookup(catalog)
        rates = CurrencyRates(configuration)
    }
}
