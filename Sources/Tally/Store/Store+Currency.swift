import Foundation
import TallyCore


extension Store {
    /// Spends virtual currency. Idempotent by `id`: spending again with the same id changes nothing and
    /// returns false. Written durably before it returns.
    ///
    /// - Parameters:
    ///   - amount: how much, above zero.
    ///   - currency: a currency of `tally.json` (`"coins"`).
    ///   - id: the app's id for this spend (an order id), so a retry cannot spend twice.
    /// - Returns: true when spent now, false when this id was already spent.
    /// - Throws: ``StoreError`` — `insufficientBalance` when the balance is short, `conflictingId` when the id
    ///   was used for another amount, `invalidValue`, `storage`; `spendOnAppBackend` with a ``ServerLink``
    ///   (the app's backend spends with the server's secret key; see docs/server.md).
    @discardableResult
    public func spend(_ amount: Decimal, of currency: String, id: String) throws(StoreError) -> Bool {
        guard serverLink == nil else { throw spendOnAppBackend(currency, id: id) }
        var history = record.history
        let spend = Spend(id: id, currency: currency, amount: amount, date: clock.now())
        let recorded: Bool
        do {
            recorded = try history.record(spend, catalog: catalog, configuration: configuration)
        } catch {
            throw StoreError.from(error, doing: "spend '\(id)'")
        }
        guard recorded else { return false }
        prepareForChange()
        try write([.spend(spend)])
        emit(stateChangeEvents())
        return true
    }
}
