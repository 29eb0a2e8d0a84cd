import Foundation
import TallyCore
import TallyStorage

/// The dashboard's queries on PostgreSQL: the same counts and sums as the SQLite store's, each one SQL aggregate over
/// the columns and indexes of schema migration 3; an overview reads in one REPEATABLE READ snapshot.
extension PostgresCustomerStore: DashboardStore {
    /// A live period of a subscription chain at `$1` (milliseconds): bought, not yet expired, not revoked by then,
    /// not replaced by an upgrade: TallyCore's `subscribed`, restated in SQL and held to it over random histories
    /// (StoreDashboardTests, `theLiveCountIsTheCustomerStatesSubscribed`) (covered by `transactions_live`).
    static let livePeriod = """
        product_type = 'Auto-Renewable Subscription' AND expires_ms > $1::bigint AND purchase_ms <= $1::bigint
        AND (revocation_ms IS NULL OR revocation_ms > $1::bigint) AND NOT is_upgraded
        """

    public func dashboardOverview(days: DashboardDays, now: Date) throws(CustomerStoreError) -> DashboardOverview {
        let nowMs = now.millisecondsSince1970
        let start = days.start.millisecondsSince1970, end = days.end.millisecondsSince1970
        return try snapshot("the dashboard's overview cannot be read") { (connection) throws(PostgresError) in
            let live = try connection.query("""
                SELECT product_id, count(DISTINCT original_transaction_id),
                    count(DISTINCT original_transaction_id) FILTER (WHERE offer_type = 1)
                FROM transactions WHERE \(Self.livePeriod) GROUP BY 1 ORDER BY 1
                """, [.integer(nowMs)])
            var products: [DashboardOverview.ProductCount] = []
            for row in 0..<live.count {
                products.append(.init(productId: try live.bytes(row, 0) ?? "", active: Int(try live.integer(row, 1) ?? 0),
                                      trials: Int(try live.integer(row, 2) ?? 0)))
            }
            let retry = try connection.query("""
                SELECT count(*) FILTER (WHERE r.grace_expires_ms > $1::bigint),
                    count(*) FILTER (WHERE coalesce(r.grace_expires_ms, 0) <= $1::bigint)
                FROM renewal_infos r
                WHERE r.in_billing_retry
                AND EXISTS (SELECT 1 FROM chains c WHERE c.original_transaction_id = r.original_transaction_id)
                AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.original_transaction_id = r.original_transaction_id
                    AND \(Self.livePeriod))
                """, [.integer(nowMs)])
            let revenue = try connection.dailyAmounts(dateColumn: "purchase_ms", start: start, end: end)
            let refunds = try connection.dailyAmounts(dateColumn: "revocation_ms", start: start, end: end)
            let seen = try connection.query("""
                SELECT first_seen_at / 86400000, count(*) FROM customers
                WHERE first_seen_at >= $1::bigint AND first_seen_at < $2::bigint GROUP BY 1
                """, [.integer(start), .integer(end)])
            var newCustomers: [String: Int] = [:]
            for row in 0..<seen.count {
                newCustomers[DashboardDays.label(dayNumber: try seen.integer(row, 0) ?? 0)] = Int(try seen.integer(row, 1) ?? 0)
            }
            return DashboardOverview(days: days, products: products, inGracePeriod: Int(try retry.integer(0, 0) ?? 0),
                                     inBillingRetry: Int(try retry.integer(0, 1) ?? 0), revenue: revenue,
                                     refunds: refunds, newCustomers: newCustomers)
        }
    }

    public func searchCustomers(_ text: String, limit: Int) throws(CustomerStoreError) -> [DashboardCustomerMatch] {
        try snapshot("the customers cannot be searched") { (connection) throws(PostgresError) in
            var matches: [DashboardCustomerMatch] = []
            for (field, sql) in [
                ("transactionId", "SELECT app_user_id FROM transactions WHERE transaction_id = $1"),
                ("originalTransactionId", "SELECT app_user_id FROM chains WHERE original_transaction_id = $1"),
                ("appAccountToken", "SELECT app_user_id FROM account_tokens WHERE app_account_token = $1"),
            ] {
                let rows = try connection.query(sql, [.bytes(text)])
                for row in 0..<rows.count { matches.append(.init(matchedBy: field, appUserId: try rows.requiredBytes(row, 0))) }
            }
            // A prefix as a range of the primary key (bytea compares bytes): every id that starts with `text` sorts at
            // or after it and before `text` followed by the byte 0xFF, which UTF-8 never holds.
            let remaining = max(0, limit - matches.count)
            let rows = try connection.query("""
                SELECT app_user_id FROM customers WHERE app_user_id >= $1 AND app_user_id < $1 || '\\xff'::bytea
                ORDER BY app_user_id LIMIT $2::bigint
                """, [.bytes(text), .integer(Int64(remaining))])
            for row in 0..<rows.count {
                let id = try rows.requiredBytes(row, 0)
                if id.utf8.starts(with: text.utf8) { matches.append(.init(matchedBy: "appUserId", appUserId: id)) }
            }
            // One row per customer (the first way it matched): a first purchase's transaction id is its chain's too.
            var seen: Set<UTF8Key> = []
            return Array(matches.filter { seen.insert(UTF8Key($0.appUserId)).inserted }.prefix(limit))
        }
    }

    public func latestTransactions(_ filter: DashboardTransactionFilter, before: DashboardListPosition?, limit: Int)
        throws(CustomerStoreError) -> [DashboardTransaction]
    {
        var conditions: [String] = []
        var values: [PostgresValue] = []
        if let productId = filter.productId {
            values.append(.bytes(productId))
            conditions.append("product_id = $\(values.count)")
        }
        if let type = filter.type {
            // No stored type holds a NUL byte (they are Apple's names), and PostgreSQL text cannot carry one.
            if type.utf8.contains(0) { return [] }
            values.append(.text(type))
            conditions.append("product_type = $\(values.count)")
        }
        if let refunded = filter.refunded {
            conditions.append("revocation_ms IS \(refunded ? "NOT " : "")NULL")
        }
        if let before {
            values += [.integer(before.number), .bytes(before.id)]
            conditions.append("(purchase_ms, transaction_id) < ($\(values.count - 1)::bigint, $\(values.count))")
        }
        values.append(.integer(Int64(limit)))
        let sql = """
            SELECT app_user_id, transaction_id, original_transaction_id, product_id, product_type, purchase_ms, expires_ms,
                revocation_ms, price, currency, offer_type
            FROM transactions \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY purchase_ms DESC, transaction_id DESC LIMIT $\(values.count)::bigint
            """
        return try snapshot("the latest transactions cannot be read") { (connection) throws(PostgresError) in
            let rows = try connection.query(sql, values)
            var list: [DashboardTransaction] = []
            for row in 0..<rows.count {
                func date(_ column: Int) throws(PostgresError) -> Date? {
                    try rows.integer(row, column).map { Date(millisecondsSince1970: $0) }
                }
                list.append(DashboardTransaction(
                    appUserId: try rows.requiredBytes(row, 0), transactionId: try rows.requiredBytes(row, 1),
                    originalTransactionId: try rows.requiredBytes(row, 2), productId: try rows.bytes(row, 3) ?? "",
                    type: rows.text(row, 4) ?? "", purchaseDate: try date(5) ?? Date(timeIntervalSince1970: 0),
                    expiresDate: try date(6), revocationDate: try date(7), price: try rows.integer(row, 8),
                    currency: try rows.bytes(row, 9), offerType: try rows.integer(row, 10).map { Int($0) },
                    position: DashboardListPosition(number: try rows.integer(row, 5) ?? 0, id: try rows.requiredBytes(row, 1))))
            }
            return list
        }
    }

    public func latestNotifications(before: DashboardListPosition?, limit: Int) throws(CustomerStoreError)
        -> [DashboardNotification]
    {
        try snapshot("the latest notifications cannot be read") { (connection) throws(PostgresError) in
            let rows = try connection.query("""
                SELECT notification_uuid, notification_type, subtype, signed_date_ms, received_at, app_user_id,
                    original_transaction_id, result, sequence
                FROM notifications WHERE sequence < $1::bigint ORDER BY sequence DESC LIMIT $2::bigint
                """, [.integer(before?.number ?? Int64.max), .integer(Int64(limit))])
            var list: [DashboardNotification] = []
            for row in 0..<rows.count {
                list.append(DashboardNotification(
                    notificationUUID: try rows.requiredBytes(row, 0), notificationType: try rows.requiredText(row, 1),
                    subtype: rows.text(row, 2), signedDate: Date(millisecondsSince1970: try rows.integer(row, 3) ?? 0),
                    receivedDate: Date(millisecondsSince1970: try rows.integer(row, 4) ?? 0),
                    appUserId: try rows.bytes(row, 5), originalTransactionId: try rows.bytes(row, 6),
                    result: try rows.requiredText(row, 7), position: DashboardListPosition(number: try rows.integer(row, 8) ?? 0)))
            }
            return list
        }
    }

    /// Runs `body` in one read-only REPEATABLE READ transaction (one snapshot for all its statements).
    func snapshot<T>(_ what: String, _ body: (PostgresConnection) throws(PostgresError) -> T)
        throws(CustomerStoreError) -> T
    {
        try read(what) { (connection) throws(PostgresError) -> T in
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            let value: T
            do throws(PostgresError) {
                value = try body(connection)
            } catch {
                if connection.isOpen { _ = try? connection.execute("ROLLBACK") }
                throw error
            }
            try connection.execute("COMMIT")
            return value
        }
    }
}

extension PostgresConnection {
    /// Sums of `price` by the UTC day of `dateColumn` (milliseconds) and currency, for days in `start..<end`;
    /// transactions without a price or currency are left out.
    func dailyAmounts(dateColumn: String, start: Int64, end: Int64) throws(PostgresError) -> [DashboardOverview.DailyAmount] {
        let rows = try query("""
            SELECT \(dateColumn) / 86400000, currency, sum(price), count(*) FROM transactions
            WHERE \(dateColumn) >= $1::bigint AND \(dateColumn) < $2::bigint AND price IS NOT NULL AND currency IS NOT NULL
            GROUP BY 1, 2 ORDER BY 1, 2
            """, [.integer(start), .integer(end)])
        var amounts: [DashboardOverview.DailyAmount] = []
        for row in 0..<rows.count {
            amounts.append(.init(day: DashboardDays.label(dayNumber: try rows.integer(row, 0) ?? 0),
                                 currency: try rows.bytes(row, 1) ?? "", milliunits: try rows.integer(row, 2) ?? 0,
                                 count: Int(try rows.integer(row, 3) ?? 0)))
        }
        return amounts
    }
}
