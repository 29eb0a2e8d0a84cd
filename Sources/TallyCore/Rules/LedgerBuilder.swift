import Foundation


/// Collects ledger entries from transactions and spends; used only by ``Ledger``.
///
/// Credits are summed as whole units per product and currency and multiplied once at the end, so the cost
/// of Decimal arithmetic does not grow with the number of purchases.
struct LedgerBuilder {
    let now: Date?
    let rates: CurrencyRates
    /// False when only totals and warnings are wanted: no entry is built.
    let recordsEntries: Bool
    private(set) var entries: [LedgerEntry] = []
    private(set) var warnings: [String]
    /// Slot → rate position → units credited and not clawed back.
    private var units: [[Int]] = []
    private var slotRates: [[CurrencyRates.Rate]] = []
    private var spent: [String: Decimal] = [:]
    /// Credits per currency position moved out of ``units`` when a unit count would overflow `Int`.
    private var spill: [Decimal]

    init(rates: CurrencyRates, through now: Date?, recordsEntries: Bool = true) {
        self.now = now
        self.recordsEntries = recordsEntries
        self.rates = rates
        warnings = rates.warnings
        spill = Array(repeating: 0, count: rates.names.count)
    }

    /// Adds a credit (and a claw-back when refunded by `now`) for every consumable purchase of a currency product.
    mutating func addCredits(of history: ClassifiedHistory, spendCount: Int = 0) {
        slotRates = history.table.entries.map(\.rates)
        units = slotRates.map { Array(repeating: 0, count: $0.count) }
        if recordsEntries {
            var expected = 0
            for position in history.positions where !slotRates[history.slots[position]].isEmpty { expected += 1 }
            entries.reserveCapacity(entries.count + expected + expected / 8 + spendCount)
        }
        for position in history.positions {
            let slot = history.slots[position]
            guard !slotRates[slot].isEmpty else { continue }
            let kind = history.kinds[position]
            guard kind == .consumable || kind == nil else { continue }
            addCredit(position, slot: slot, history: history)
        }
    }

    private mutating func addCredit(_ position: Int, slot: Int, history: ClassifiedHistory) {
        let quantity = history.quantities[position]
        guard quantity > 0 else {
            warnings.append("transaction \(history.transactionId(position)) of "
                + "'\(history.table.entries[slot].productId)' has quantity \(quantity); it credits nothing")
            return
        }
        var revoked = history.revocationDates[position]
        if let date = revoked, let now, date > now { revoked = nil }
        let productRates = slotRates[slot]
        for ratePosition in productRates.indices {
            guard recordsEntries else {
                if revoked == nil { addUnits(quantity, slot: slot, ratePosition: ratePosition) }
                continue
            }
            let rate = productRates[ratePosition]
            let id = history.transactionId(position)
            let amount = rate.amount(quantity: quantity)
            let currency = rates.names[rate.currency]
            let suffix = productRates.count == 1 ? id : "\(id):\(currency)"
            entries.append(LedgerEntry(id: "credit:" + suffix, kind: .credit, currency: currency, amount: amount,
                                       date: history.purchaseDates[position], transactionId: id))
            guard let revoked else {
                addUnits(quantity, slot: slot, ratePosition: ratePosition)
                continue
            }
            entries.append(LedgerEntry(id: "clawback:" + suffix, kind: .clawback, currency: currency,
                                       amount: -amount, date: revoked, transactionId: id))
        }
    }

    /// Counts `quantity` units credited through one of a slot's rates.
    private mutating func addUnits(_ quantity: Int, slot: Int, ratePosition: Int) {
        let (sum, overflow) = units[slot][ratePosition].addingReportingOverflow(quantity)
        if overflow {
            let rate = slotRates[slot][ratePosition]
            spill[rate.currency] += rate.perUnit * Decimal(units[slot][ratePosition])
            units[slot][ratePosition] = quantity
        } else {
            units[slot][ratePosition] = sum
        }
    }

    /// Adds every spend once by id, dated at or before `now`.
    mutating func addSpends(_ spends: [Spend]) {
        // A Dictionary, not StringPositions: spend ids are the caller's strings, so the table must not slow down
        // under chosen collisions. Ids compare as UTF-8 bytes (``UTF8Key``), as the stores and
        // `PurchaseHistory.record` compare them: canonically equivalent spellings are two spends.
        var seen: [UTF8Key: Int] = [:]
        seen.reserveCapacity(spends.count)
        var sums = SpendSums()
        for (position, spend) in spends.enumerated() {
            if let now, spend.date > now { continue }
            let key = UTF8Key(spend.id)
            if let firstPosition = seen[key] {
                let first = spends[firstPosition]
                if !first.currency.hasSameBytes(as: spend.currency) || first.amount != spend.amount {
                    warnings.append("spend '\(spend.id)' appears twice with different amounts "
                        + "(\(first.amount) \(first.currency), \(spend.amount) \(spend.currency)); the first counts")
                }
                continue
            }
            seen[key] = position
            if !rates.names.contains(where: { $0.hasSameBytes(as: spend.currency) }) {
                warnings.append("spend '\(spend.id)' uses currency '\(spend.currency)', which tally.json does not define")
            }
            sums.add(spend.amount, to: spend.currency)
            guard recordsEntries else { continue }
            entries.append(LedgerEntry(id: "spend:" + spend.id, kind: .spend, currency: spend.currency,
                                       amount: -spend.amount, date: spend.date))
        }
        for (currency, amount) in sums.totals() { spent[currency, default: 0] += amount }
    }

    /// Sorts the entries by date, then id, keeping the order of equal entries. Sorts positions by a plain
    /// `Double` key, comparing ids only between entries of the same date, then moves each entry once.
    mutating func sortEntries() {
        let unsorted = entries
        var order = unsorted.indices.map { SortKey(date: unsorted[$0].date.timeIntervalSinceReferenceDate, position: $0) }
        if order.indices.dropFirst().allSatisfy({ order[$0 - 1].date < order[$0].date }) { return }
        order.sort { left, right in
            if left.date != right.date { return left.date < right.date }
            let leftId = unsorted[left.position].id, rightId = unsorted[right.position].id
            return leftId != rightId ? leftId < rightId : left.position < right.position
        }
        entries = order.map { unsorted[$0.position] }
    }

    private struct SortKey {
        var date: Double
        var position: Int
    }

    /// Net amount per currency: every configured currency, plus any a spend named.
    func totals() -> [String: Decimal] {
        var totals: [String: Decimal] = [:]
        for (position, name) in rates.names.enumerated() { totals[name] = spill[position] }
        for (slot, productRates) in slotRates.enumerated() {
            for (position, rate) in productRates.enumerated() where units[slot][position] != 0 {
                totals[rates.names[rate.currency], default: 0] += rate.perUnit * Decimal(units[slot][position])
            }
        }
        for (currency, amount) in spent { totals[currency, default: 0] -= amount }
        return totals
    }
}
