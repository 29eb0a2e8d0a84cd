import Foundation
import TallyCore
import TallyStorage
import TallySQLite

extension SQLiteCustomerStore {
    /// A page of the transactions bought with an offer (`offer_type` set), newest purchase first, after `before`
    /// when given, with every offer's count, in one read snapshot: the page by the partial index
    /// `transactions_by_offer`, the totals by `transactions_offer_totals` (schema migration 15), grouped by the
    /// payload's `offerIdentifier` as its JSON literal (`jsonString(_:)`).
    public func offerRedemptions(before: DashboardListPosition?, limit: Int) throws(CustomerStoreError) -> DashboardOffers {
        var values: [SQLiteValue] = []
        var after = ""
        if let before {
            after = "AND (purchase_ms, transaction_id) < (?, ?)"
            values += [.integer(before.number), .text(before.id)]
        }
        values.append(.integer(Int64(limit)))
        let sql = """
            SELECT app_user_id, transaction_id, original_transaction_id, product_id, purchase_ms, price, currency,
                offer_type, payload -> '$.offerIdentifier', json_extract(payload, '$.offerDiscountType'),
                json_extract(payload, '$.environment')
            FROM transactions WHERE offer_type IS NOT NULL \(after)
            ORDER BY purchase_ms DESC, transaction_id DESC LIMIT ?
            """
        return try read { (connection) throws(SQLiteError) in
            var rows: [DashboardOfferRedemption] = []
            try connection.query(sql, values) { (row) throws(SQLiteError) in
                let transactionId = try row.requiredText(1)
                rows.append(DashboardOfferRedemption(
                    appUserId: try row.requiredText(0), transactionId: transactionId,
                    originalTransactionId: try row.requiredText(2), productId: row.text(3) ?? "",
                    offerType: Int(row.int64(7)), offerIdentifier: Self.jsonString(row.text(8)), offerDiscountType: row.text(9),
                    price: row.isNull(5) ? nil : row.int64(5), currency: row.text(6),
                    purchaseDate: Date(millisecondsSince1970: row.int64(4)), environment: row.text(10),
                    position: DashboardListPosition(number: row.int64(4), id: transactionId)))
            }
            var totals: [DashboardOfferTotal] = []
            try connection.query("""
                SELECT offer_type, payload -> '$.offerIdentifier', count(*) FROM transactions
                WHERE offer_type IS NOT NULL GROUP BY 1, 2
                """, []) { (row) throws(SQLiteError) in
                totals.append(DashboardOfferTotal(offerType: Int(row.int64(0)), offerIdentifier: Self.jsonString(row.text(1)),
                                                  count: Int(row.int64(2))))
            }
            return DashboardOffers(redemptions: rows, totals: totals)
        }
    }

    /// The string of a JSON string literal (what `payload -> '$.offerIdentifier'` answers, escapes kept); nil for
    /// NULL. Read this way because `json_extract` cuts a string at an escaped NUL (`\u0000`), which an offer id
    /// may hold: grouped by its literal, two ids that differ after a NUL stay two offers.
    static func jsonString(_ literal: String?) -> String? {
        guard let literal, case .string(let value)? = try? JSONDecoder().decode(JSONTree.self, from: Data(literal.utf8))
        else { return nil }
        return value
    }
}
