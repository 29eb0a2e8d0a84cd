import Foundation


/// Every currency movement of one customer, derived from a ``PurchaseHistory``: credits from consumable
/// purchases, spends, and claw-backs of refunded purchases. Balances are sums of these entries; nothing
/// else in Tally computes a balance.
public struct Ledger: Sendable, Hashable {
    /// The entries, sorted by date, then id.
    public let entries: [LedgerEntry]
    /// Problems found in the history or configuration that a person should look at.
    public let warnings: [String]
    /// Sum of the entries per currency.
    let totals: [String: Decimal]

    /// Builds the ledger of `history`; with `now`, only transactions, spends and claw-backs dated at or
    /// before `now` count. The catalog settles the kind of a transaction whose `type` Tally does not know
    /// (without it, such a transaction of a currency product counts as a consumable).
    public init(history: PurchaseHistory, catalog: Catalog? = nil, configuration: AppConfiguration,
                through now: Date? = nil) {
        let rates = CurrencyRates(configuration)
        let classified = ClassifiedHistory(history.transactions, through: now,
                                           products: ProductLookup(catalog ?? Catalog(products: [])), rates: rates)
        self.init(history: history, classified: classified, through: now)
    }

    /// Builds the ledger of an already classified history; without `recordsEntries`, ``entries`` stays
    /// empty and only totals and warnings are computed.
    init(history: PurchaseHistory, classified: ClassifiedHistory, through now: Date?, recordsEntries: Bool = true) {
        var builder = LedgerBuilder(rates: classified.table.rates, through: now, recordsEntries: recordsEntries)
        builder.addCredits(of: classified, spendCount: history.spends.count)
        builder.addSpends(history.spends)
        builder.sortEntries()
        entries = builder.entries
        warnings = builder.warnings
        totals = builder.totals()
    }

    /// The configured currencies plus any a spend named, sorted.
    public var currencies: [String] { totals.keys.sorted() }

    /// Credits minus spends minus claw-backs; negative when refunds took back coins already spent.
    public func net(of currency: String) -> Decimal {
        totals[currency] ?? 0
    }

    /// What the customer can spend: the net amount, or zero when in debt.
    public func balance(of currency: String) -> Decimal {
        max(net(of: currency), 0)
    }

    /// What the customer owes after claw-backs exceeded the balance; zero otherwise.
    public func debt(of currency: String) -> Decimal {
        max(-net(of: currency), 0)
    }

    /// The net amount counting only entries dated at or before `date`.
    public func net(of currency: String, asOf date: Date) -> Decimal {
        var sum = Decimal(0)
        for entry in entries where entry.date <= date && entry.currency.hasSameBytes(as: currency) {
            sum += entry.amount
        }
        return sum
    }
}
