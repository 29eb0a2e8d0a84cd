import Foundation
import TallyCore
import TallyStorage
import TallySQLite

/// The SQLite store's rows for ``TransactionRecorder``, inside the one writer's transaction (so no row or
/// chain needs a lock of its own).
struct SQLiteTransactionRows: TransactionRows {
    typealias Failure = SQLiteError

    let connection: SQLiteConnection

    /// Nothing: one writer at a time.
    func lockChains(_ chains: [String]) throws(SQLiteError) {}

    func owner(ofChain chain: String) throws(SQLiteError) -> String? {
        try connection.text("SELECT app_user_id FROM chains WHERE original_transaction_id = ?", [.text(chain)])
    }

    /// The minter, or the identified customer a minter that was anonymous is aliased to.
    func owner(ofToken token: String) throws(SQLiteError) -> String? {
        try connection.text("SELECT app_user_id FROM account_tokens WHERE app_account_token = ?", [.text(token)])
            .map { (owner) throws(SQLiteError) in try connection.resolvingAlias(owner) }
    }

    func storedCopy(_ transactionId: String) throws(SQLiteError) -> StoredTransactionRow? {
        try connection.withStatement("""
            SELECT app_user_id, original_transaction_id, payload FROM transactions WHERE transaction_id = ?
            """, [.text(transactionId)]) { (row) throws(SQLiteError) -> StoredTransactionRow? in
            guard try row.step() else { return nil }
            return StoredTransactionRow(owner: try row.requiredText(0), chain: try row.requiredText(1),
                                        payload: try row.requiredText(2))
        }
    }

    func transaction(in row: StoredTransactionRow, id: String) throws(SQLiteError) -> StoreTransaction {
        try StoredValueCoding.transaction(json: row.payload, id: id)
    }

    func prepareCustomer(_ appUserId: String) throws(SQLiteError) {
        try connection.ensureCustomer(appUserId)
    }

    func fileChain(_ chain: String, owner: String) throws(SQLiteError) {
        try connection.execute("INSERT INTO chains (original_transaction_id, app_user_id) VALUES (?, ?)",
                               [.text(chain), .text(owner)])
    }

    func moveChain(_ chain: String, from: String, to: String, date: Date, repeating: Int64?) throws(SQLiteError) {
        try connection.execute("UPDATE chains SET app_user_id = ? WHERE original_transaction_id = ?",
                               [.text(to), .text(chain)])
        try connection.execute("UPDATE transactions SET app_user_id = ? WHERE original_transaction_id = ?",
                               [.text(to), .text(chain)])
        if let repeating {
            try connection.execute("""
                UPDATE transfers SET from_app_user_id = ?, to_app_user_id = ?, date_ms = ?, moves = moves + 1
                WHERE sequence = ?
                """, [.text(from), .text(to), .integer(date.millisecondsSince1970), .integer(repeating)])
            return
        }
        try connection.execute("""
            INSERT INTO transfers (original_transaction_id, from_app_user_id, to_app_user_id, date_ms)
            VALUES (?, ?, ?, ?)
            """, [.text(chain), .text(from), .text(to), .integer(date.millisecondsSince1970)])
    }

    func recentTransfers(ofChain chain: String, since: Date) throws(SQLiteError) -> [RecentTransfer] {
        var found: [RecentTransfer] = []
        try connection.query("""
            SELECT sequence, from_app_user_id, to_app_user_id, date_ms, moves FROM transfers
            WHERE original_transaction_id = ? AND date_ms >= ? ORDER BY date_ms, sequence
            """, [.text(chain), .integer(since.millisecondsSince1970)]) { (row) throws(SQLiteError) in
            found.append(RecentTransfer(sequence: row.int64(0), fromAppUserId: try row.requiredText(1),
                                        toAppUserId: try row.requiredText(2),
                                        date: Date(millisecondsSince1970: row.int64(3)), moves: row.int64(4)))
        }
        return found
    }

    func insert(_ item: PreparedTransaction, owner: String, date: Date) throws(SQLiteError) {
        try connection.execute("""
            INSERT INTO transactions (original_transaction_id, app_user_id, app_account_token, source, payload,
                                      signed_transaction, updated_at, consumable, transaction_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, Self.values(item, owner: owner, date: date))
    }

    func replace(_ item: PreparedTransaction, owner: String, date: Date) throws(SQLiteError) {
        try connection.execute("""
            UPDATE transactions SET original_transaction_id = ?, app_user_id = ?, app_account_token = ?, source = ?,
                payload = ?, signed_transaction = ?, updated_at = ?, consumable = ?,
                superseded_from_ms = \(SupersessionColumn.notSuperseded), superseded_by = NULL
            WHERE transaction_id = ?
            """, Self.values(item, owner: owner, date: date))
    }

    func unsupersededFacts(of appUserId: String) throws(SQLiteError) -> [StoreTransaction] {
        var facts: [StoreTransaction] = []
        try connection.query("""
            SELECT transaction_id, payload FROM transactions
            WHERE app_user_id = ? AND consumable = 0 AND superseded_from_ms = \(SupersessionColumn.notSuperseded)
            """, [.text(appUserId)]) { (row) throws(SQLiteError) in
            facts.append(try connection.decodedPayloads.transaction(json: try row.requiredText(1), id: try row.requiredText(0)))
        }
        return facts
    }

    func markSuperseded(_ marks: [PeriodSupersession.Mark]) throws(SQLiteError) {
        for mark in marks {
            try connection.execute("UPDATE transactions SET superseded_from_ms = ?, superseded_by = ? WHERE transaction_id = ?",
                                   [.integer(mark.from.millisecondsSince1970), .text(mark.by), .text(mark.transactionId)])
        }
    }

    func clearSupersessions(by transactionId: String) throws(SQLiteError) {
        try connection.execute("""
            UPDATE transactions SET superseded_from_ms = \(SupersessionColumn.notSuperseded), superseded_by = NULL
            WHERE superseded_by = ?
            """, [.text(transactionId)])
    }

    func clearSupersessions(of appUserId: String) throws(SQLiteError) {
        try connection.execute("""
            UPDATE transactions SET superseded_from_ms = \(SupersessionColumn.notSuperseded), superseded_by = NULL
            WHERE app_user_id = ? AND consumable = 0 AND superseded_from_ms < \(SupersessionColumn.notSuperseded)
            """, [.text(appUserId)])
    }

    func addToNet(of appUserId: String, currency: String, _ amount: Decimal) throws(SQLiteError) {
        try connection.addToNet(of: appUserId, currency: currency, amount)
    }

    func bumpVersion(of appUserId: String, factsToo: Bool) throws(SQLiteError) {
        try connection.bumpVersion(of: appUserId, factsToo: factsToo)
    }

    /// The row's values in the order both statements take them (the id last).
    private static func values(_ item: PreparedTransaction, owner: String, date: Date) -> [SQLiteValue] {
        let transaction = item.normalized
        return [
            .text(transaction.originalTransactionId), .text(owner), .optionalText(transaction.appAccountToken),
            .text(item.stored.source.rawValue), .text(item.json), .optionalText(item.stored.signedTransaction),
            .integer(date.millisecondsSince1970), .integer(transaction.type == .consumable ? 1 : 0),
            .text(transaction.transactionId),
        ]
    }
}
