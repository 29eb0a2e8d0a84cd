import Foundation

extension Spend {
    /// Whether this spend may be recorded against `available` of its currency, given the spend already recorded
    /// with the same id (compared as UTF-8 bytes), if any: false for a repeat of that spend (nothing to record);
    /// throws `conflictingId` when the id was used for another currency or amount, and `insufficientBalance`
    /// when `available` does not cover the amount. The one rule for spends, on the device and on the server.
    public func admit(existing: Spend?, available: Decimal) throws -> Bool {
        if let existing {
            guard existing.currency.hasSameBytes(as: currency), existing.amount == amount else {
                throw TallyError(.conflictingId, "spend id '\(id)' was already used for \(existing.amount) "
                    + "\(existing.currency); this spend asks \(amount) \(currency). Use a new id for a new spend")
            }
            return false
        }
        guard available >= amount else {
            let debt = available < 0 ? " (and \(-available) owed)" : ""
            throw TallyError(.insufficientBalance, "spend '\(id)': the balance is \(max(available, 0)) "
                + "\(currency)\(debt), the spend needs \(amount)")
        }
        return true
    }
}
