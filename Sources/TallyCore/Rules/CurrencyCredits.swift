import Foundation

/// What each transaction credits, one transaction at a time: the rule a store needs to keep balances
/// materialised (a running net per currency) instead of replaying a customer's whole ledger.
///
/// It agrees with ``Ledger`` built without a date: a consumable purchase of a currency product (or a
/// transaction of unknown type whose catalog product is one) credits `quantity × rate` per currency while it
/// is not revoked; a revoked copy credits nothing (the credit and its claw-back cancel out).
public struct CurrencyCredits: Sendable {
    private let rates: CurrencyRates
    private let products: ProductLookup
    /// A stable text of everything the credits depend on: currencies, their products and rates, and the catalog
    /// kinds of those products. A store keeps it beside its balances and rebuilds them when it changes.
    public let fingerprint: String

    /// The credits `configuration` defines, with product kinds from `catalog`.
    public init(catalog: Catalog, configuration: AppConfiguration) {
        rates = CurrencyRates(configuration)
        products = ProductLookup(catalog)
        var lines: [String] = []
        for currency in rates.names {
            for (productId, perUnit) in (configuration.currencies[currency] ?? [:]).sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes($1.key.utf8) }) {
                let kind = products[productId].map { "\($0.kind)" } ?? "-"
                lines.append("\(currency)\t\(productId)\t\(perUnit)\t\(kind)")
            }
        }
        fingerprint = lines.joined(separator: "\n")
    }

    /// The configured currency names, sorted.
    public var currencies: [String] { rates.names }

    /// What `transaction` credits while not revoked, per currency in name order; empty when it credits nothing.
    public func credits(of transaction: StoreTransaction) -> [(currency: String, amount: Decimal)] {
        guard transaction.quantity > 0, let productRates = rates.byProduct[transaction.productId] else { return [] }
        let kind = ProductKind.of(transaction.type, catalogKind: products[transaction.productId]?.kind)
        guard kind == .consumable || kind == nil else { return [] }
        return productRates.map { (rates.names[$0.currency], $0.amount(quantity: transaction.quantity)) }
    }

    /// How each net amount changes when `incoming` becomes the copy that counts in place of `stored` (nil for a
    /// transaction stored for the first time): a refund takes the credit back, a refund reversal returns it.
    public func change(from stored: StoreTransaction?, to incoming: StoreTransaction) -> [(currency: String, amount: Decimal)] {
        var change: [(currency: String, amount: Decimal)] = []
        if !incoming.isRevoked { change += credits(of: incoming) }
        if let stored, !stored.isRevoked {
            for credit in credits(of: stored) {
                if let position = change.firstIndex(where: { $0.currency.hasSameBytes(as: credit.currency) }) {
                    change[position].amount -= credit.amount
                } else {
                    change.append((credit.currency, -credit.amount))
                }
            }
        }
        return change.filter { $0.amount != 0 }
    }
}

extension CurrencyCredits {
    /// The net amount per currency of a whole history, counting every transaction, refund and spend whatever
    /// its date (what the changes sum to from an empty start): to build materialised balances afresh.
    public func nets(of history: PurchaseHistory) -> [String: Decimal] {
        let classified = ClassifiedHistory(history.transactions, through: nil, products: products, rates: rates)
        let ledger = Ledger(history: history, classified: classified, through: nil, recordsEntries: false)
        var nets: [String: Decimal] = [:]
        for currency in ledger.currencies { nets[currency] = ledger.net(of: currency) }
        return nets
    }
}
