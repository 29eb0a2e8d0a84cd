extension AppConfiguration {
    /// Checks this configuration against the catalog it will be used with and throws one ``TallyError``
    /// (`invalidConfiguration`) listing every problem, one per line:
    /// - a product id that is not in the catalog (`market.coins.10 is not in Market.storekit`);
    /// - a currency product that is not Consumable (only units bought can credit a currency);
    /// - an entitlement granted by a Consumable (it is used up, so it cannot grant a lasting feature);
    /// - a `nonRenewingDurations` entry for a product that is not a NonRenewingSubscription, and a
    ///   NonRenewingSubscription of the catalog with no duration (its expiry could not be computed).
    /// `fileName` names this configuration in the message.
    public func validate(against catalog: Catalog, fileName: String = "tally.json") throws(TallyError) {
        let problems = problems(against: catalog)
        guard !problems.isEmpty else { return }
        let catalogName = catalog.fileName ?? "the catalog"
        throw TallyError(.invalidConfiguration, "\(fileName) does not match \(catalogName):\n"
                         + problems.map { "- \($0)" }.joined(separator: "\n"))
    }

    /// Every mismatch between this configuration and `catalog`, sorted by key for stable messages.
    public func problems(against catalog: Catalog) -> [String] {
        let catalogName = catalog.fileName ?? "the catalog"
        var problems: [String] = []
        func lookup(_ id: String, _ path: String) -> CatalogProduct? {
            guard let product = catalog.product(id) else {
                problems.append("\(path): \(id) is not in \(catalogName)")
                return nil
            }
            return product
        }
        for feature in entitlements.keys.sorted() {
            for id in entitlements[feature] ?? [] {
                if let product = lookup(id, "entitlements.\(feature)"), product.kind == .consumable {
                    problems.append("entitlements.\(feature): \(id) is a Consumable; it is used up and cannot grant "
                                    + "a lasting entitlement")
                }
            }
        }
        for currency in currencies.keys.sorted() {
            for id in (currencies[currency] ?? [:]).keys.sorted() {
                if let product = lookup(id, "currencies.\(currency)"), product.kind != .consumable {
                    problems.append("currencies.\(currency): \(id) is a \(product.kind.storeKitType); only Consumable "
                                    + "products can credit a currency")
                }
            }
        }
        for id in nonRenewingDurations.keys.sorted() {
            if let product = lookup(id, "nonRenewingDurations"), product.kind != .nonRenewing {
                problems.append("nonRenewingDurations: \(id) is a \(product.kind.storeKitType), not a "
                                + "NonRenewingSubscription")
            }
        }
        for product in catalog.products where product.kind == .nonRenewing && nonRenewingDurations[product.id] == nil {
            problems.append("nonRenewingDurations: \(product.id) is a NonRenewingSubscription in \(catalogName) but has "
                            + "no duration; add \"\(product.id)\": \"P1M\" (or its real length)")
        }
        return problems
    }
}
