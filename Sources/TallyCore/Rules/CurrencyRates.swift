import Foundation


/// What each consumable product credits, from `tally.json`'s `currencies`.
struct CurrencyRates: Sendable {
    /// One currency a product credits.
    struct Rate: Sendable {
        /// Position of the currency in ``CurrencyRates/names``.
        var currency: Int
        var perUnit: Decimal
        /// `perUnit × quantity` for quantities 1 through 8, so the common cases need no Decimal arithmetic.
        var small: [Decimal]

        init(currency: Int, perUnit: Decimal) {
            self.currency = currency
            self.perUnit = perUnit
            small = (1...8).map { perUnit * Decimal($0) }
        }

        /// The credit for buying `quantity` units (quantity > 0).
        func amount(quantity: Int) -> Decimal {
            quantity <= small.count ? small[quantity - 1] : perUnit * Decimal(quantity)
        }
    }

    /// Currency names, sorted.
    let names: [String]
    /// Product id → the currencies it credits, in name order.
    let byProduct: [String: [Rate]]
    /// Configuration problems found while reading the rates.
    let warnings: [String]

    init(_ configuration: AppConfiguration) {
        names = configuration.currencies.keys.sorted()
        var byProduct: [String: [Rate]] = [:]
        var warnings: [String] = []
        for (position, currency) in names.enumerated() {
            for (productId, perUnit) in configuration.currencies[currency] ?? [:] {
                guard !perUnit.isNaN, perUnit > 0 else {
                    warnings.append("currency '\(currency)': product '\(productId)' credits \(perUnit); "
                        + "amounts must be positive, so its purchases credit nothing")
                    continue
                }
                byProduct[productId, default: []].append(Rate(currency: position, perUnit: perUnit))
            }
        }
        self.byProduct = byProduct
        self.warnings = warnings
    }
}
