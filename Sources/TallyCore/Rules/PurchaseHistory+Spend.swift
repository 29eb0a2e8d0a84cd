import Foundation


extension PurchaseHistory {
    /// Records a spend if the balance covers it. Returns false when a spend with the same id was already
    /// recorded (idempotent; ids and currencies compare as UTF-8 bytes); throws `conflictingId` when the id was used for a different currency or amount,
    /// `insufficientBalance` when short, and `invalidValue` for an empty id, an amount not above zero or a
    /// currency `tally.json` does not define.
    ///
    /// The balance available is the ledger's net amount as of the spend's date, minus every spend dated later.
    @discardableResult
    public mutating func record(_ spend: Spend, catalog: Catalog, configuration: AppConfiguration) throws -> Bool {
        try Self.validate(spend, configuration: configuration)
        let existing = spends.first(where: { $0.id.hasSameBytes(as: spend.id) })
        let available = existing == nil
            ? spendable(spend.currency, at: spend.date, catalog: catalog, configuration: configuration) : 0
        guard try spend.admit(existing: existing, available: available) else { return false }
        spends.append(spend)
        return true
    }

    /// What a spend of `currency` dated `date` may use: the ledger's net amount as of `date`, minus every
    /// spend dated later (spends judged earlier may carry a later date). Negative when in debt.
    public func spendable(_ currency: String, at date: Date, catalog: Catalog,
                          configuration: AppConfiguration) -> Decimal {
        let ledger = Ledger(history: self, catalog: catalog, configuration: configuration)
        var available = ledger.net(of: currency, asOf: date)
        for entry in ledger.entries where entry.kind == .spend && entry.currency.hasSameBytes(as: currency) && entry.date > date {
            available += entry.amount
        }
        return available
    }

    /// Throws `invalidValue` for an empty id, an amount that cannot be spent exactly, or a currency `tally.json`
    /// does not define (compared as UTF-8 bytes).
    public static func validate(_ spend: Spend, configuration: AppConfiguration) throws {
        guard !spend.id.isEmpty else {
            throw TallyError(.invalidValue, "a spend needs a non-empty id, so a retry cannot spend twice")
        }
        if let problem = Spend.amountProblem(spend.amount) {
            throw TallyError(.invalidValue, "spend '\(spend.id)': \(problem)")
        }
        guard configuration.currencies.keys.contains(where: { $0.hasSameBytes(as: spend.currency) }) else {
            let known = configuration.currencies.keys.sorted().joined(separator: ", ")
            throw TallyError(.invalidValue, "spend '\(spend.id)': currency '\(spend.currency)' is not defined in "
                + "tally.json (currencies: \(known.isEmpty ? "none" : known))")
        }
    }
}
