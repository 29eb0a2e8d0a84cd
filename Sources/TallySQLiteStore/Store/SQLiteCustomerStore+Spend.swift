import Foundation
import TallyCore
import TallyStorage
import TallySQLite

extension SQLiteCustomerStore {
    /// What `admit` decided, carried out of the write transaction.
    private enum Admission: Sendable {
        case recorded(CustomerRecord)
        case duplicate(CustomerRecord)
        case refused(any Error)
    }

    /// Stores the spend `admit` returns, judged on the spend already recorded with `id` and the net of `currency`
    /// kept in `balances`, read inside the same write transaction: two indexed lookups, whatever the history's
    /// size. Writes run one after another on the single write connection (those of a commit group in one
    /// transaction, each seeing the ones before it), so concurrent spends are judged one after another and
    /// never overdraw. `admit` may run again if SQLite rolls the group back for another write's failure.
    public func spend(id: String, currency: String, for appUserId: String,
                      admit: (_ existing: Spend?, _ net: Decimal) throws -> Spend?) throws(CustomerStoreError)
        -> SpendOutcome
    {
        try spend(id: id, currency: currency, for: appUserId, stateAt: nil, admit: admit)
    }

    /// ``spend(id:currency:for:admit:)``, answering with the state at `date` encoded by `encoding` (the record read
    /// leaves out the periods superseded by then).
    public func spend(id: String, currency: String, for appUserId: String, at date: Date, encoding: StateEncoding,
                      admit: (_ existing: Spend?, _ net: Decimal) throws -> Spend?) throws(CustomerStoreError)
        -> SpendAnswer
    {
        try spend(id: id, currency: currency, for: appUserId, stateAt: date, admit: admit).answer(encoding, at: date)
    }

    private func spend(id: String, currency: String, for appUserId: String, stateAt date: Date?,
                       admit: (_ existing: Spend?, _ net: Decimal) throws -> Spend?) throws(CustomerStoreError)
        -> SpendOutcome
    {
        let admission = try write { (connection) throws(SQLiteError) -> Admission in
            let appUserId = try connection.resolvingAlias(appUserId)  // aliased since the caller looked
            let existing = try connection.spend(id, of: appUserId)
            let net = try connection.net(of: appUserId, currency: currency)
            let admitted: Spend?
            do {
                admitted = try admit(existing, net)
            } catch {
                return .refused(error)  // nothing written: its savepoint is empty
            }
            guard let spend = admitted else { return .duplicate(try connection.customerStateRecord(appUserId, at: date)) }
            let user = SQLiteValue.text(appUserId)
            try connection.ensureCustomer(appUserId)
            try connection.execute("""
                INSERT INTO spends (app_user_id, spend_id, currency, amount, date_ms) VALUES (?, ?, ?, ?, ?)
                """, [user, .text(spend.id), .text(spend.currency), .text(StoredValueCoding.text(spend.amount)),
                      .integer(StoredValueCoding.milliseconds(spend.date))])
            try connection.setNet(of: appUserId, currency: spend.currency, net - spend.amount)  // `net` was read above
            try connection.bumpVersion(of: appUserId, factsToo: false)
            return .recorded(try connection.customerStateRecord(appUserId, at: date))
        }
        switch admission {
        case .recorded(let record): return .recorded(record)
        case .duplicate(let record): return .duplicate(record)
        case .refused(let error):
            throw CustomerStoreError(.refused, "the spend was refused: \(error)", underlying: error)
        }
    }
}

extension SQLiteConnection {
    /// The spend `appUserId` recorded with `id` (compared as bytes), nil when none.
    func spend(_ id: String, of appUserId: String) throws(SQLiteError) -> Spend? {
        try withStatement("""
            SELECT currency, amount, date_ms FROM spends WHERE app_user_id = ? AND spend_id = ?
            """, [.text(appUserId), .text(id)]) { (row) throws(SQLiteError) -> Spend? in
            guard try row.step() else { return nil }
            return Spend(id: id, currency: try row.requiredText(0),
                         amount: try StoredValueCoding.amount(try row.requiredText(1), spendId: id),
                         date: Date(millisecondsSince1970: row.int64(2)))
        }
    }
}
