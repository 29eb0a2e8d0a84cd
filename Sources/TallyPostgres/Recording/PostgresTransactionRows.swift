import Foundation
import TallyCore
import TallyStorage

/// The PostgreSQL store's rows for TallyServer's ``TallyServer/TransactionRecorder``, inside one READ COMMITTED
/// transaction: chains are locked with transaction-scoped advisory locks, the stored copy and the customer rows
/// with row locks, and each copy is written by an upsert whose `WHERE` states newer-facts-win in SQL too.
struct PostgresTransactionRows: TransactionRows {
    typealias Failure = PostgresError

    let connection: PostgresConnection

    func lockChains(_ chains: [String]) throws(PostgresError) {
        try connection.lockChains(chains)
    }

    func owner(ofChain chain: String) throws(PostgresError) -> String? {
        try connection.owner(ofChain: chain)
    }

    func owner(ofToken token: String) throws(PostgresError) -> String? {
        try connection.owner(ofToken: token)
    }

    /// The stored row, locked (`FOR UPDATE`) until the transaction ends.
    func storedCopy(_ transactionId: String) throws(PostgresError) -> StoredTransactionRow? {
        let rows = try connection.query("""
            SELECT app_user_id, original_transaction_id, payload FROM transactions WHERE transaction_id = $1 FOR UPDATE
            """, [.bytes(transactionId)])
        guard rows.count > 0 else { return nil }
        return StoredTransactionRow(owner: try rows.requiredBytes(0, 0), chain: try rows.requiredBytes(0, 1),
                                    payload: try rows.requiredText(0, 2))
    }

    func transaction(in row: StoredTransactionRow, id: String) throws(PostgresError) -> StoreTransaction {
        try PostgresCoding.transaction(json: row.payload, id: id)
    }

    /// Creates the customer's row when absent and locks it (``PostgresConnection/lockCustomer(_:)``).
    func prepareCustomer(_ appUserId: String) throws(PostgresError) {
        try connection.lockCustomer(appUserId)
    }

    func fileChain(_ chain: String, owner: String) throws(PostgresError) {
        try connection.insertChain(chain, owner: owner)
    }

    func moveChain(_ chain: String, from: String, to: String, date: Date, repeating: Int64?) throws(PostgresError) {
        try connection.query("UPDATE chains SET app_user_id = $1 WHERE original_transaction_id = $2",
                             [.bytes(to), .bytes(chain)])
        try connection.query("UPDATE transactions SET app_user_id = $1 WHERE original_transaction_id = $2",
                             [.bytes(to), .bytes(chain)])
        if let repeating {
            try connection.query("""
                UPDATE transfers SET from_app_user_id = $1, to_app_user_id = $2, date_ms = $3::bigint,
                    moves = moves + 1
                WHERE sequence = $4::bigint
                """, [.bytes(from), .bytes(to), .integer(date.millisecondsSince1970), .integer(repeating)])
            return
        }
        try connection.query("""
            INSERT INTO transfers (original_transaction_id, from_app_user_id, to_app_user_id, date_ms)
            VALUES ($1, $2, $3, $4::bigint)
            """, [.bytes(chain), .bytes(from), .bytes(to), .integer(date.millisecondsSince1970)])
    }

    func recentTransfers(ofChain chain: String, since: Date) throws(PostgresError) -> [RecentTransfer] {
        let rows = try connection.query("""
            SELECT sequence, from_app_user_id, to_app_user_id, date_ms, moves FROM transfers
            WHERE original_transaction_id = $1 AND date_ms >= $2::bigint ORDER BY date_ms, sequence
            """, [.bytes(chain), .integer(since.millisecondsSince1970)])
        var found: [RecentTransfer] = []
        for row in 0..<rows.count {
            found.append(RecentTransfer(
                sequence: try rows.integer(row, 0) ?? 0, fromAppUserId: try rows.requiredBytes(row, 1),
                toAppUserId: try rows.requiredBytes(row, 2),
                date: Date(millisecondsSince1970: try rows.integer(row, 3) ?? 0), moves: try rows.integer(row, 4) ?? 1))
        }
        return found
    }

    /// The upsert inserts; a row that appeared meanwhile (a concurrent first insert) runs the write again.
    func insert(_ item: PreparedTransaction, owner: String, date: Date) throws(PostgresError) {
        guard try upsert(item, owner: owner, date: date) == true else {
            throw .retry("transaction inserted by a concurrent write")
        }
    }

    /// The upsert replaces; its `WHERE` must agree with TallyCore, which decided (the row is locked).
    func replace(_ item: PreparedTransaction, owner: String, date: Date) throws(PostgresError) {
        guard try upsert(item, owner: owner, date: date) == false else {
            throw .retry("stored copy vanished during the write")
        }
    }

    func unsupersededFacts(of appUserId: String) throws(PostgresError) -> [StoreTransaction] {
        let rows = try connection.query("""
            SELECT transaction_id, payload FROM transactions
            WHERE app_user_id = $1 AND NOT consumable AND superseded_from_ms = \(SupersessionColumn.notSuperseded)
            """, [.bytes(appUserId)])
        var facts: [StoreTransaction] = []
        for row in 0..<rows.count {
            facts.append(try connection.decodedTransaction(json: try rows.requiredText(row, 1), id: try rows.requiredBytes(row, 0)))
        }
        return facts
    }

    func markSuperseded(_ marks: [PeriodSupersession.Mark]) throws(PostgresError) {
        for mark in marks {
            try connection.query("""
                UPDATE transactions SET superseded_from_ms = $1::bigint, superseded_by = $2 WHERE transaction_id = $3
                """, [.integer(mark.from.millisecondsSince1970), .bytes(mark.by), .bytes(mark.transactionId)])
        }
    }

    func clearSupersessions(by transactionId: String) throws(PostgresError) {
        try connection.query("""
            UPDATE transactions SET superseded_from_ms = \(SupersessionColumn.notSuperseded), superseded_by = NULL WHERE superseded_by = $1
            """, [.bytes(transactionId)])
    }

    func clearSupersessions(of appUserId: String) throws(PostgresError) {
        try connection.query("""
            UPDATE transactions SET superseded_from_ms = \(SupersessionColumn.notSuperseded), superseded_by = NULL
            WHERE app_user_id = $1 AND NOT consumable AND superseded_from_ms < \(SupersessionColumn.notSuperseded)
            """, [.bytes(appUserId)])
    }

    func addToNet(of appUserId: String, currency: String, _ amount: Decimal) throws(PostgresError) {
        try connection.addToNet(of: appUserId, currency: currency, amount)
    }

    func bumpVersion(of appUserId: String, factsToo: Bool) throws(PostgresError) {
        try connection.bumpVersion(of: appUserId, factsToo: factsToo)
    }

    /// `INSERT … ON CONFLICT (transaction_id) DO UPDATE … WHERE` the incoming copy is newer by `signed_date_ms`, a
    /// revoked copy winning a tie (TallyCore's `StoreTransaction.supersedes` in SQL); true when it inserted, false when
    /// it updated, nil when the `WHERE` kept the stored row.
    private func upsert(_ item: PreparedTransaction, owner: String, date: Date) throws(PostgresError) -> Bool? {
        let transaction = item.normalized
        let rows = try connection.query("""
            INSERT INTO transactions (transaction_id, original_transaction_id, app_user_id, app_account_token, source,
                payload, signed_transaction, signed_date_ms, revoked, product_type, consumable, updated_at,
                product_id, purchase_ms, expires_ms, revocation_ms, price, currency, offer_type, is_upgraded,
                offer_identifier, offer_discount_type, environment)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8::bigint, $9::boolean, $10, $11::boolean, $12::bigint,
                $13, $14::bigint, $15::bigint, $16::bigint, $17::bigint, $18, $19::integer, $20::boolean, $21, $22, $23)
            ON CONFLICT (transaction_id) DO UPDATE SET original_transaction_id = EXCLUDED.original_transaction_id,
                app_user_id = EXCLUDED.app_user_id, app_account_token = EXCLUDED.app_account_token,
                source = EXCLUDED.source, payload = EXCLUDED.payload, signed_transaction = EXCLUDED.signed_transaction,
                signed_date_ms = EXCLUDED.signed_date_ms, revoked = EXCLUDED.revoked,
                product_type = EXCLUDED.product_type, consumable = EXCLUDED.consumable, updated_at = EXCLUDED.updated_at,
                product_id = EXCLUDED.product_id, purchase_ms = EXCLUDED.purchase_ms, expires_ms = EXCLUDED.expires_ms,
                revocation_ms = EXCLUDED.revocation_ms, price = EXCLUDED.price, currency = EXCLUDED.currency,
                offer_type = EXCLUDED.offer_type, is_upgraded = EXCLUDED.is_upgraded,
                offer_identifier = EXCLUDED.offer_identifier, offer_discount_type = EXCLUDED.offer_discount_type,
                environment = EXCLUDED.environment,
                superseded_from_ms = \(SupersessionColumn.notSuperseded), superseded_by = NULL
            WHERE coalesce(EXCLUDED.signed_date_ms, -9223372036854775808) > coalesce(transactions.signed_date_ms, -9223372036854775808)
               OR (coalesce(EXCLUDED.signed_date_ms, -9223372036854775808) = coalesce(transactions.signed_date_ms, -9223372036854775808)
                   AND (EXCLUDED.revoked OR NOT transactions.revoked))
            RETURNING (xmax = 0)
            """, [
                .bytes(transaction.transactionId), .bytes(transaction.originalTransactionId), .bytes(owner),
                .optionalBytes(transaction.appAccountToken), .text(item.stored.source.rawValue), .text(item.json),
                .optionalBytes(item.stored.signedTransaction),
                transaction.signedDate.map { .integer($0.millisecondsSince1970) } ?? .null, .bool(transaction.isRevoked),
                .text(transaction.type.rawValue), .bool(transaction.type == .consumable), .integer(date.millisecondsSince1970),
            ] + PostgresCoding.dashboardValues(of: transaction) + PostgresCoding.offerValues(of: transaction))
        return rows.count == 1 ? rows.bool(0, 0) : nil
    }
}
