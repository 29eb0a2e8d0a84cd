import Foundation

extension CatalogRules {
    /// A stable text of everything a ``CustomerState`` depends on besides the record and the date: the catalog's
    /// products and subscription groups, the features, currencies and non-renewing durations of `tally.json`,
    /// and the bundle id. Two processes with the same files produce the same text (maps are written in the
    /// byte order of their keys); a store keeps it beside an encoded state, and a state kept with another one is
    /// computed again.
    public var fingerprint: String {
        func sorted<Value>(_ map: [String: Value]) -> [(key: String, value: Value)] {
            map.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
        }
        var lines = ["bundleId\t\(configuration.bundleId)"]
        for (feature, productIds) in sorted(configuration.entitlements) {
            lines.append("feature\t\(feature)\t\(productIds.joined(separator: "\t"))")
        }
        for (currency, rates) in sorted(configuration.currencies) {
            for (productId, amount) in sorted(rates) { lines.append("currency\t\(currency)\t\(productId)\t\(amount)") }
        }
        for (productId, period) in sorted(configuration.nonRenewingDurations) {
            lines.append("nonRenewing\t\(productId)\t\(period)")
        }
        // Products and groups hold arrays and optionals only, so their reflection is the same in every process.
        lines.append("products\t\(String(reflecting: catalog.products))")
        lines.append("groups\t\(String(reflecting: catalog.subscriptionGroups))")
        return lines.joined(separator: "\n")
    }
}
