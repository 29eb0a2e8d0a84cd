import Foundation


/// One slot per product id met in a history, holding the catalog facts and currency rates of that product,
/// so the rules hash each transaction's product id once and use array positions afterwards.
struct ProductTable: Sendable {
    /// What the rules know about one product.
    struct Entry: Sendable {
        let productId: String
        let catalog: ProductLookup.Info?
        let rates: [CurrencyRates.Rate]
    }

    private(set) var entries: [Entry] = []
    /// The catalog kind of each slot's product (a plain array: reading it retains nothing).
    private(set) var catalogKinds: [ProductKind?] = []
    /// Whether each slot's product credits a currency.
    private(set) var creditsCurrency: [Bool] = []
    private var slotById = StringPositions()
    let lookup: ProductLookup
    let rates: CurrencyRates

    init(lookup: ProductLookup, rates: CurrencyRates) {
        self.lookup = lookup
        self.rates = rates
    }

    /// The slot of a product id, created on first use.
    mutating func slot(of productId: String) -> Int {
        let (inserted, slot) = slotById.insert(hash: StringPositions.hash(productId)) { entries[$0].productId == productId }
        if inserted {
            entries.append(Entry(productId: productId, catalog: lookup[productId],
                                 rates: rates.byProduct[productId] ?? []))
            catalogKinds.append(lookup[productId]?.kind)
            creditsCurrency.append(rates.byProduct[productId] != nil)
        }
        return slot
    }

    /// The product id of a slot.
    func productId(_ slot: Int) -> String { entries[slot].productId }

    /// The catalog level of a slot's product; nil when the catalog lacks it.
    func level(_ slot: Int) -> Int? { entries[slot].catalog?.level }

    /// How a change between two slots' products takes effect; nil when either product's level or period is unknown.
    func change(from old: Int, to new: Int) -> SubscriptionChange? {
        if old == new { return .same }
        guard let from = entries[old].catalog, let to = entries[new].catalog, let fromLevel = from.level,
              let toLevel = to.level, let fromPeriod = from.period, let toPeriod = to.period
        else { return nil }
        return SubscriptionChange.classify(fromLevel: fromLevel, fromPeriod: fromPeriod,
                                           toLevel: toLevel, toPeriod: toPeriod)
    }
}
