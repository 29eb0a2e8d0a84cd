import Foundation
import TallyCore

extension PostgresConnection {
    /// Fills the dashboard's columns (schema migration 3) of the rows whose payload the migration's SQL could not
    /// read (JSON holding `\u0000`), by decoding each payload here, inside the migration's transaction.
    func fillDashboardColumns() throws(PostgresError) {
        try fillTransactionColumns(where: "true", set: """
            product_id = $2, purchase_ms = $3::bigint, expires_ms = $4::bigint, revocation_ms = $5::bigint,
            price = $6::bigint, currency = $7, offer_type = $8::integer, is_upgraded = $9::boolean
            """, PostgresCoding.dashboardValues(of:))
        let renewals = try query("SELECT original_transaction_id, payload FROM renewal_infos WHERE strpos(payload, '\\u0000') > 0")
        for row in 0..<renewals.count {
            let chain = try renewals.requiredBytes(row, 0)
            let info = try PostgresCoding.renewalInfo(json: try renewals.requiredText(row, 1), chain: chain)
            try query("""
                UPDATE renewal_infos SET in_billing_retry = $2::boolean, grace_expires_ms = $3::bigint
                WHERE original_transaction_id = $1
                """, [.bytes(chain)] + PostgresCoding.dashboardValues(of: info))
        }
    }

    /// Fills the offer columns (schema migration 13) of the transactions bought with an offer whose payload the
    /// migration's SQL could not read (JSON holding `\u0000`).
    func fillOfferColumns() throws(PostgresError) {
        try fillTransactionColumns(where: "offer_type IS NOT NULL",
                                   set: "offer_identifier = $2, offer_discount_type = $3, environment = $4",
                                   PostgresCoding.offerValues(of:))
    }

    /// Sets the columns `assignments` names (`$2`… the `values` of each row's decoded payload) of the transactions
    /// passing `condition` whose payload holds `\u0000`.
    private func fillTransactionColumns(where condition: String, set assignments: String,
                                        _ values: (StoreTransaction) -> [PostgresValue]) throws(PostgresError) {
        let transactions = try query("""
            SELECT transaction_id, payload FROM transactions WHERE \(condition) AND strpos(payload, '\\u0000') > 0
            """)
        for row in 0..<transactions.count {
            let id = try transactions.requiredBytes(row, 0)
            let transaction = try PostgresCoding.transaction(json: try transactions.requiredText(row, 1), id: id)
            try query("UPDATE transactions SET \(assignments) WHERE transaction_id = $1", [.bytes(id)] + values(transaction))
        }
    }
}
