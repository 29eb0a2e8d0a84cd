import Foundation


/// Collects ledger entries from transactions and spends; used only by ``Ledger``.
struct LedgerBuilder {
    /// One currency a product credits.
    struct Rate {
        var currency: Int
        var perUnit: Decimal
    }

    let now: Date?
    /// Currency names, sorted; rates refer to them by position.
    let currencyNames: [String]
    /// Product id → the currencies it credits.
    let rates: [String: [Rate]]
    private(set) var entries: [LedgerEntry] = []
    private(set) var warnings: [String] = []
    private var sums: [Decimal]
    private var extraSums: [String: Decimal] = [:]

    init(configuration: AppConfiguration, through now: Date?) {
        self.now = now
        currencyNames = configuration.currencies.keys.sorted()
        var rates: [String: [Rate]] = [:]
        var warnings: [String] = []
        for (position, currency) in currencyNames.enumerated() {
            for (productId, perUnit) in configuration.currencies[currency] ?? [:] {
                guard perUnit > 0 else {
                    warnings.append("currency '\(currency)': product '\(productId)' credits \(perUnit); "
                        + "amounts must be positive, so its purchases credit nothing")
                    continue
                }
                rates[productId, default: []].append(Rate(currency: position, perUnit: perUnit))
            }
        }
        self.rates = rates
        self.warnings = warnings
        sums = Array(repeating: 0, count: currencyNames.count)
    }

    /// Adds a credit (and a claw-back when refunded) for every consumable purchase of a currency product.
    mutating func addCredits(of transactions: [Transaction], winners: [Int]) {
        guard !rates.isEmpty else { return }
        for index in winners {
            guard let productRates = rates[transactions[index].productId],
                  ProductKind.of(transactions[index].type, catalogKind: .consumable) == .consumable
            else { continue }
            addCredit(transactions[index], productRates)
        }
    }

    private mutating func addCredit(_ transaction: Transaction, _ productRates: [Rate]) {
        let id = transaction.transactionId
        guard transaction.quantity > 0 else {
            warnings.append("transaction \(id) of '\(transaction.productId)' has quantity \(transaction.quantity); "
                + "it credits nothing")
            return
        }
        let revoked = transaction.revocationDate.flatMap { date in (now.map { date <= $0 } ?? true) ? date : nil }
        for rate in productRates {
            let amount = transaction.quantity == 1 ? rate.perUnit : rate.perUnit * Decimal(transaction.quantity)
            let currency = currencyNames[rate.currency]
            let suffix = productRates.count == 1 ? id : "\(id):\(currency)"
            entries.append(LedgerEntry(id: "credit:" + suffix, kind: .credit, currency: currency, amount: amount,
                                       date: transaction.purchaseDate, transactionId: id))
            guard let revoked else {
                sums[rate.currency] += amount
                continue
            }
            entries.append(LedgerEntry(id: "clawback:" + suffix, kind: .clawback, currency: currency,
                                       amount: -amount, date: revoked, transactionId: id))
        }
    }

    /// Adds every spend once by id, dated at or before `now`.
    mutating func addSpends(_ spends: [Spend]) {
        var seen: [String: Spend] = [:]
        for spend in spends {
            if let now, spend.date > now { continue }
            if let first = seen[spend.id] {
                if first.currency != spend.currency || first.amount != spend.amount {
                    warnings.append("spend '\(spend.id)' appears twice with different amounts "
                        + "(\(first.amount) \(first.currency), \(spend.amount) \(spend.currency)); the first counts")
                }
                continue
            }
            seen[spend.id] = spend
            if let position = currencyNames.firstIndex(of: spend.currency) {
                sums[position] -= spend.amount
            } else {
                warnings.append("spend '\(spend.id)' uses currency '\(spend.currency)', which tally.json does not define")
                extraSums[spend.currency, default: 0] -= spend.amount
            }
            entries.append(LedgerEntry(id: "spend:" + spend.id, kind: .spend, currency: spend.currency,
                                       amount: -spend.amount, date: spend.date))
        }
    }

    /// The entries sorted by date, then id.
    func sortedEntries() -> [LedgerEntry] {
        entries.sorted { $0.date != $1.date ? $0.date < $1.date : $0.id < $1.id }
    }

    /// Net amount per currency: every configured currency, plus any a spend named.
    func totals() -> [String: Decimal] {
        var totals = extraSums
        for (position, name) in currencyNames.enumerated() { totals[name] = sums[position] }
        return totals
    }
}
