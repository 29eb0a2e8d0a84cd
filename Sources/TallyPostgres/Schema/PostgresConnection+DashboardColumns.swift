import Foundation
import TallyCore

extension PostgresConnection {
    /// Fills the dashboard's columns (schema migration 3) of the rows whose payload the migration's SQL could not
    /// read (JSON holding `\u0000`), by decoding each payload here, inside the migration's transaction.
    func fillDashboardColumns() throws(PostgresError) {
        let transactions = try query("SELECT transaction_id, payload FROM transactions WHERE strpos(payload, '\\u0000') > 0")
        for row in 0..<transactions.count {
            let id = try transactions.requiredBytes(row, 0)
            let transaction = try PostgresCoding.transaction(json: try transactions.requiredText(row, 1), id: id)
            try query("""
                UPDATE transactions SET product_id = $2, purchase_ms = $3::bigint, expires_ms = $4::bigint,
                    revocation_ms = $5::bigint, price = $6::bigint, currency = $7, offer_type = $8::integer,
                    is_upgraded = $9::boolean
                WHERE transaction_id = $1
                """, [.bytes(id)] + PostgresCoding.dashboardValues(of: transaction))
        }
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
}
