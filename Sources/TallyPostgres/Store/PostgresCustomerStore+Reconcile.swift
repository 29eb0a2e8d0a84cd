import Foundation
import TallyCore
import TallyStorage

extension PostgresCustomerStore {
    /// The revision reconciliation reached for `appUserId`.
    public func historyRevision(of appUserId: String) throws(CustomerStoreError) -> String? {
        try read("the history revision cannot be read") { (connection) throws(PostgresError) -> String? in
            let rows = try connection.query("SELECT revision FROM history_revisions WHERE app_user_id = $1", [.bytes(appUserId)])
            return rows.count == 0 ? nil : rows.text(0, 0)
        }
    }

    /// One transaction: the transactions under `keep` (with the adoption of pending notifications), the renewal
    /// infos by newer-wins, and the revision.
    public func reconcile(_ transactions: [StoredTransaction], renewalInfos: [StoredRenewalInfo], revision: String?,
                          for appUserId: String, at date: Date) throws(CustomerStoreError) -> ReconcileOutcome {
        var prepared: [PreparedTransaction] = []
        for transaction in transactions { prepared.append(try PreparedTransaction(transaction)) }
        var infos: [PreparedRenewalInfo] = []
        for info in renewalInfos { infos.append(try PreparedRenewalInfo(info.renewalInfo, signed: info.signedRenewalInfo)) }
        let items = prepared, renewals = infos, credits = self.credits
        return try write("the reconciliation cannot be stored") { (connection) throws(PostgresError) -> ReconcileOutcome in
            let outcome = try PostgresTransactionRows(connection: connection)
                .reconcile(items, renewalInfos: renewals, for: appUserId, credits: credits, date: date)
            if let revision {
                try connection.lockCustomer(appUserId)
                try connection.query("""
                    INSERT INTO history_revisions (app_user_id, revision, updated_at) VALUES ($1, $2, $3::bigint)
                    ON CONFLICT (app_user_id) DO UPDATE SET revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at
                    """, [.bytes(appUserId), .text(revision), .integer(date.millisecondsSince1970)])
            }
            return outcome
        }
    }

    /// Proves a write commits now: a probe row in `store_settings` rewritten in a transaction of its own
    /// (PostgreSQL writes and flushes its WAL for it, as for every write).
    public func checkWritable() throws(CustomerStoreError) {
        try write("the database does not take writes") { (connection) throws(PostgresError) in
            try connection.setSetting("readiness_probe", String(Date().millisecondsSince1970))
        }
    }
}
