import Foundation
import TallyCore
import TallyStorage
import TallySQLite

extension SQLiteConnection {
    /// Everything stored for `appUserId`, read with the connection's current transaction (or autocommit).
    func customerRecord(_ appUserId: String) throws(SQLiteError) -> CustomerRecord {
        let user = SQLiteValue.text(appUserId)
        var record = try recordHead(appUserId, transactionsWhere: "app_user_id = ?", [])
        try query("""
            SELECT spend_id, currency, amount, date_ms FROM spends WHERE app_user_id = ? ORDER BY sequence
            """, [user]) { (row) throws(SQLiteError) in
            let id = try row.requiredText(0)
            record.spends.append(Spend(
                id: id, currency: try row.requiredText(1), amount: try StoredValueCoding.amount(try row.requiredText(2), spendId: id),
                date: Date(millisecondsSince1970: row.int64(3))))
        }
        try query("""
            SELECT original_transaction_id, from_app_user_id, to_app_user_id, date_ms FROM transfers
            WHERE from_app_user_id = ?1 OR to_app_user_id = ?1 ORDER BY sequence
            """, [user]) { (row) throws(SQLiteError) in
            record.transfers.append(OwnershipTransfer(
                originalTransactionId: try row.requiredText(0), fromAppUserId: try row.requiredText(1),
                toAppUserId: try row.requiredText(2), date: Date(millisecondsSince1970: row.int64(3))))
        }
        record.renewalInfos = try renewalInfos(for: record.transactions)
        record.notifications = try notificationEntries(of: appUserId)
        return record
    }

    /// What the customer state needs of `appUserId`: the version, the nets, the renewal infos and the transactions
    /// that are not consumables (consumables count only through the nets), so its cost does not grow with coin purchases or
    /// spends. Read with the connection's current transaction.
    ///
    /// For a state at `now`, the periods superseded by then (TallyCore's `PeriodSupersession`) are left out, so its
    /// cost does not grow with renewals either; with no date, every transaction that is not a consumable is read.
    func customerStateRecord(_ appUserId: String, at now: Date? = nil) throws(SQLiteError) -> CustomerRecord {
        var record = try recordHead(
            appUserId, transactionsWhere: "app_user_id = ? AND consumable = 0 AND superseded_from_ms > ?",
            [.integer(SupersessionColumn.cutoff(at: now))])
        record.renewalInfos = try renewalInfos(for: record.transactions)
        return record
    }

    /// The customer's version and facts version (``CustomerRecord/factsVersion``); 0 for a customer never written.
    func versions(of appUserId: String) throws(SQLiteError) -> (version: Int64, facts: Int64) {
        try withStatement("SELECT version, facts_version FROM customers WHERE app_user_id = ?", [.text(appUserId)]) {
            (row) throws(SQLiteError) -> (version: Int64, facts: Int64) in
            guard try row.step() else { return (0, 0) }
            return (row.int64(0), row.int64(1))
        }
    }

    /// The version, the nets and the transactions matching `condition` (its first `?` the customer id, the others
    /// `parameters`), by id.
    private func recordHead(_ appUserId: String, transactionsWhere condition: String, _ parameters: [SQLiteValue])
        throws(SQLiteError) -> CustomerRecord
    {
        var record = CustomerRecord(appUserId: appUserId)
        (record.version, record.factsVersion) = try versions(of: appUserId)
        record.nets = try nets(of: appUserId)
        let sql = "SELECT transaction_id, source, payload, signed_transaction FROM transactions WHERE "
            + condition + " ORDER BY transaction_id"
        try query(sql, [.text(appUserId)] + parameters) { (row) throws(SQLiteError) in
            let id = try row.requiredText(0)
            let transaction = try decodedPayloads.transaction(json: try row.requiredText(2), id: id)
            record.transactions.append(StoredTransaction(
                transaction: transaction, source: try StoredValueCoding.source(row.text(1), id: id),
                signedTransaction: row.text(3)))
        }
        return record
    }
}
