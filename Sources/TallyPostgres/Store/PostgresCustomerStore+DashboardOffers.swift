import Foundation
import TallyCore
import TallyStorage

extension PostgresCustomerStore {
    /// A page of the transactions bought with an offer (`offer_type` set), newest purchase first, after `before`
    /// when given, with every offer's count, in one REPEATABLE READ snapshot, over the columns and the partial index
    /// `transactions_by_offer` of schema migration 13.
    public func offerRedemptions(before: DashboardListPosition?, limit: Int) throws(CustomerStoreError) -> DashboardOffers {
        var values: [PostgresValue] = []
        var after = ""
        if let before {
            values += [.integer(before.number), .bytes(before.id)]
            after = "AND (purchase_ms, transaction_id) < ($1::bigint, $2)"
        }
        values.append(.integer(Int64(limit)))
        let sql = """
            SELECT app_user_id, transaction_id, original_transaction_id, product_id, purchase_ms, price, currency,
                offer_type, offer_identifier, offer_discount_type, environment
            FROM transactions WHERE offer_type IS NOT NULL \(after)
            ORDER BY purchase_ms DESC, transaction_id DESC LIMIT $\(values.count)::bigint
            """
        return try snapshot("the offer redemptions cannot be read") { (connection) throws(PostgresError) in
            let rows = try connection.query(sql, values)
            var redemptions: [DashboardOfferRedemption] = []
            for row in 0..<rows.count {
                let transactionId = try rows.requiredBytes(row, 1), purchase = try rows.integer(row, 4) ?? 0
                redemptions.append(DashboardOfferRedemption(
                    appUserId: try rows.requiredBytes(row, 0), transactionId: transactionId,
                    originalTransactionId: try rows.requiredBytes(row, 2), productId: try rows.bytes(row, 3) ?? "",
                    offerType: Int(try rows.integer(row, 7) ?? 0), offerIdentifier: try rows.bytes(row, 8),
                    offerDiscountType: rows.text(row, 9), price: try rows.integer(row, 5), currency: try rows.bytes(row, 6),
                    purchaseDate: Date(millisecondsSince1970: purchase), environment: rows.text(row, 10),
                    position: DashboardListPosition(number: purchase, id: transactionId)))
            }
            let counted = try connection.query("""
                SELECT offer_type, offer_identifier, count(*) FROM transactions WHERE offer_type IS NOT NULL GROUP BY 1, 2
                """)
            var totals: [DashboardOfferTotal] = []
            for row in 0..<counted.count {
                totals.append(DashboardOfferTotal(offerType: Int(try counted.integer(row, 0) ?? 0),
                                                  offerIdentifier: try counted.bytes(row, 1),
                                                  count: Int(try counted.integer(row, 2) ?? 0)))
            }
            return DashboardOffers(redemptions: redemptions, totals: totals)
        }
    }
}
