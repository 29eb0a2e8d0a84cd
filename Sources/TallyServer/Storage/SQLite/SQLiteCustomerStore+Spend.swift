import Foundation
import TallyCore

extension SQLiteCustomerStore {
    /// What `admit` decided, carried out of the write transaction.
    private enum Admission: Sendable {
        case recorded(CustomerRecord)
        case duplicate(CustomerRecord)
        case refused(any Error)
    }

    /// Stores the spend `admit`, run on the record read inside the same write transaction, returns.
    /// Writes run one after another on the single write connection (those of a commit group in one
    /// transaction, each seeing the ones before it), so concurrent spends are judged one after another and
    /// never overdraw. `admit` may run again if SQLite rolls the group back for another write's failure.
    public func spend(for appUserId: String,
                      admit: (CustomerRecord) throws -> Spend?) throws(CustomerStoreError) -> SpendOutcome {
        let admission = try write { (connection) throws(SQLiteError) -> Admission in
            var record = try connection.customerRecord(appUserId)
            let admitted: Spend?
            do {
                admitted = try admit(record)
            } catch {
                return .refused(error)  // nothing written: its savepoint is empty
            }
            guard let spend = admitted else { return .duplicate(record) }
            let user = SQLiteValue.text(appUserId)
            try connection.ensureCustomer(appUserId)
            try connection.execute("""
                INSERT INTO spends (app_user_id, spend_id, currency, amount, date_ms) VALUES (?, ?, ?, ?, ?)
                """, [user, .text(spend.id), .text(spend.currency), .text(StoredValueCoding.text(spend.amount)),
                      .integer(StoredValueCoding.milliseconds(spend.date))])
            record.version = try connection.bumpVersion(of: appUserId)
            record.spends.append(Spend(id: spend.id, currency: spend.currency, amount: spend.amount,
                                       date: Date(millisecondsSince1970: StoredValueCoding.milliseconds(spend.date))))
            return .recorded(record)
        }
        switch admission {
        case .recorded(let record): return .recorded(record)
        case .duplicate(let record): return .duplicate(record)
        case .refused(let error):
            throw CustomerStoreError(.refused, "the spend was refused: \(error)", underlying: error)
        }
    }
}
