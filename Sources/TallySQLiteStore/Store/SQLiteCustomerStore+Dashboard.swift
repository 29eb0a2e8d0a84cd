import Foundation
import TallyCore
import TallyStorage
import TallySQLite

/// The dashboard's queries over SQLite: every count and sum is one SQL aggregate over the indexes of schema
/// migration 6 (expressions over the stored payload), each call in one read snapshot.
extension SQLiteCustomerStore: DashboardStore {
    /// A live period of a subscription chain at `?1` (milliseconds): bought, not yet expired, not revoked by then,
    /// not replaced by an upgrade: TallyCore's `subscribed`, restated in SQL and held to it over random histories
    /// (StoreDashboardTests, `theLiveCountIsTheCustomerStatesSubscribed`) (the generated columns of schema migration 6, covered by `transactions_live`).
    static let livePeriod = """
        type = 'Auto-Renewable Subscription' AND expires_ms > ?1 AND purchase_ms <= ?1
        AND (revocation_ms IS NULL OR revocation_ms > ?1) AND is_upgraded = 0
        """

    public func dashboardOverview(days: DashboardDays, now: Date) throws(CustomerStoreError) -> DashboardOverview {
        let nowMs = Int64(now.millisecondsSince1970)
        let start = Int64(days.start.millisecondsSince1970), end = Int64(days.end.millisecondsSince1970)
        return try read { (connection) throws(SQLiteError) in
            var products: [DashboardOverview.ProductCount] = []
            try connection.query("""
                SELECT product_id, count(DISTINCT original_transaction_id),
                    count(DISTINCT CASE WHEN offer_type = 1 THEN original_transaction_id END)
                FROM transactions INDEXED BY transactions_live WHERE \(Self.livePeriod)
                GROUP BY 1 ORDER BY 1
                """, [.integer(nowMs)]) { (row) throws(SQLiteError) in
                products.append(.init(productId: row.text(0) ?? "", active: Int(row.int64(1)), trials: Int(row.int64(2))))
            }
            var grace = 0, retry = 0
            try connection.query("""
                SELECT coalesce(sum(json_extract(r.payload, '$.gracePeriodExpiresDate') > ?1), 0),
                    coalesce(sum(coalesce(json_extract(r.payload, '$.gracePeriodExpiresDate'), 0) <= ?1), 0)
                FROM renewal_infos r
                WHERE json_extract(r.payload, '$.isInBillingRetryPeriod') = 1
                AND EXISTS (SELECT 1 FROM chains c WHERE c.original_transaction_id = r.original_transaction_id)
                AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.original_transaction_id = r.original_transaction_id
                    AND \(Self.livePeriod))
                """, [.integer(nowMs)]) { (row) throws(SQLiteError) in
                grace = Int(row.int64(0))
                retry = Int(row.int64(1))
            }
            let revenue = try connection.dailyAmounts(dateColumn: "purchase_ms", start: start, end: end)
            let refunds = try connection.dailyAmounts(dateColumn: "revocation_ms", start: start, end: end)
            var newCustomers: [String: Int] = [:]
            try connection.query("""
                SELECT first_seen_at / 86400000, count(*) FROM customers
                WHERE first_seen_at >= ? AND first_seen_at < ? GROUP BY 1
                """, [.integer(start), .integer(end)]) { (row) throws(SQLiteError) in
                newCustomers[DashboardDays.label(dayNumber: row.int64(0))] = Int(row.int64(1))
            }
            return DashboardOverview(days: days, products: products, inGracePeriod: grace, inBillingRetry: retry,
                                     revenue: revenue, refunds: refunds, newCustomers: newCustomers)
        }
    }

    public func searchCustomers(_ text: String, limit: Int) throws(CustomerStoreError) -> [DashboardCustomerMatch] {
        try read { (connection) throws(SQLiteError) in
            var matches: [DashboardCustomerMatch] = []
            for (field, sql) in [
                ("transactionId", "SELECT app_user_id FROM transactions WHERE transaction_id = ?"),
                ("originalTransactionId", "SELECT app_user_id FROM chains WHERE original_transaction_id = ?"),
                ("appAccountToken", "SELECT app_user_id FROM account_tokens WHERE app_account_token = ?"),
            ] {
                try connection.query(sql, [.text(text)]) { (row) throws(SQLiteError) in
                    matches.append(.init(matchedBy: field, appUserId: try row.requiredText(0)))
                }
            }
            // A prefix as a range of the primary key (BINARY collation compares UTF-8 bytes): every string that
            // starts with `text` sorts at or after it and before `text` followed by U+10FFFF, the largest scalar.
            let remaining = max(0, limit - matches.count)
            try connection.query("""
                SELECT app_user_id FROM customers WHERE app_user_id >= ?1 AND app_user_id < ?2
                ORDER BY app_user_id LIMIT ?3
                """, [.text(text), .text(text + "\u{10FFFF}"), .integer(Int64(remaining))]) { (row) throws(SQLiteError) in
                let id = try row.requiredText(0)
                if id.utf8.starts(with: text.utf8) { matches.append(.init(matchedBy: "appUserId", appUserId: id)) }
            }
            // One row per customer (the first way it matched): a first purchase's transaction id is its chain's too.
            var seen: Set<[UInt8]> = []
            return Array(matches.filter { seen.insert(Array($0.appUserId.utf8)).inserted }.prefix(limit))
        }
    }

    public func latestTransactions(_ filter: DashboardTransactionFilter, before: DashboardListPosition?, limit: Int)
        throws(CustomerStoreError) -> [DashboardTransaction]
    {
        var conditions: [String] = []
        var values: [SQLiteValue] = []
        if let productId = filter.productId {
            conditions.append("product_id = ?")
            values.append(.text(productId))
        }
        if let type = filter.type {
            conditions.append("type = ?")
            values.append(.text(type))
        }
        if let refunded = filter.refunded {
            conditions.append("revocation_ms IS \(refunded ? "NOT " : "")NULL")
        }
        if let before {
            conditions.append("(purchase_ms, transaction_id) < (?, ?)")
            values += [.integer(before.number), .text(before.id)]
        }
        values.append(.integer(Int64(limit)))
        let sql = """
            SELECT app_user_id, transaction_id, original_transaction_id, product_id, type, purchase_ms, expires_ms,
                revocation_ms, price, currency, offer_type
            FROM transactions \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY purchase_ms DESC, transaction_id DESC LIMIT ?
            """
        return try read { (connection) throws(SQLiteError) in
            var rows: [DashboardTransaction] = []
            try connection.query(sql, values) { (row) throws(SQLiteError) in
                func date(_ index: Int32) -> Date? {
                    row.isNull(index) ? nil : Date(millisecondsSince1970: row.int64(index))
                }
                rows.append(DashboardTransaction(
                    appUserId: try row.requiredText(0), transactionId: try row.requiredText(1),
                    originalTransactionId: try row.requiredText(2), productId: row.text(3) ?? "",
                    type: row.text(4) ?? "", purchaseDate: date(5) ?? Date(timeIntervalSince1970: 0),
                    expiresDate: date(6), revocationDate: date(7), price: row.isNull(8) ? nil : row.int64(8),
                    currency: row.text(9), offerType: row.isNull(10) ? nil : Int(row.int64(10)),
                    position: DashboardListPosition(number: row.int64(5), id: try row.requiredText(1))))
            }
            return rows
        }
    }

    public func latestNotifications(before: DashboardListPosition?, limit: Int) throws(CustomerStoreError)
        -> [DashboardNotification]
    {
        try read { (connection) throws(SQLiteError) in
            var rows: [DashboardNotification] = []
            try connection.query("""
                SELECT notification_uuid, notification_type, subtype, signed_date_ms, received_at, app_user_id,
                    original_transaction_id, result, sequence
                FROM notifications WHERE sequence < ? ORDER BY sequence DESC LIMIT ?
                """, [.integer(before?.number ?? Int64.max), .integer(Int64(limit))]) { (row) throws(SQLiteError) in
                rows.append(DashboardNotification(
                    notificationUUID: try row.requiredText(0), notificationType: try row.requiredText(1),
                    subtype: row.text(2), signedDate: Date(millisecondsSince1970: row.int64(3)),
                    receivedDate: Date(millisecondsSince1970: row.int64(4)), appUserId: row.text(5),
                    originalTransactionId: row.text(6), result: try row.requiredText(7),
                    position: DashboardListPosition(number: row.int64(8))))
            }
            return rows
        }
    }

    /// Runs `body` on a read connection in one snapshot; maps failures to store errors.
    func read<T: Sendable>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(CustomerStoreError) -> T {
        do {
            return try readers.withConnection { (connection) throws(SQLiteError) in
                try connection.readTransaction { () throws(SQLiteError) in try body(connection) }
            }
        } catch {
            throw error.storeError()
        }
    }
}

extension SQLiteConnection {
    /// Sums of `price` by the UTC day of `dateColumn` (a generated column of milliseconds) and currency, for days in
    /// `start..<end` (milliseconds); transactions without a price or currency are left out.
    func dailyAmounts(dateColumn: String, start: Int64, end: Int64) throws(SQLiteError)
        -> [DashboardOverview.DailyAmount]
    {
        var rows: [DashboardOverview.DailyAmount] = []
        try query("""
            SELECT \(dateColumn) / 86400000, currency, sum(price), count(*) FROM transactions
            WHERE \(dateColumn) >= ? AND \(dateColumn) < ? AND price IS NOT NULL AND currency IS NOT NULL
            GROUP BY 1, 2 ORDER BY 1, 2
            """, [.integer(start), .integer(end)]) { (row) throws(SQLiteError) in
            rows.append(.init(day: DashboardDays.label(dayNumber: row.int64(0)), currency: row.text(1) ?? "",
                              milliunits: row.int64(2), count: Int(row.int64(3))))
        }
        return rows
    }
}
