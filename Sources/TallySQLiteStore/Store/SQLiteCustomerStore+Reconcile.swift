import Foundation
import TallyCore
import TallyStorage
import TallySQLite

extension SQLiteCustomerStore {
    /// The revision in `history_revisions`, read from one snapshot.
    public func historyRevision(of appUserId: String) throws(CustomerStoreError) -> String? {
        do {
            return try readers.withConnection { (connection) throws(SQLiteError) in
                try connection.text("SELECT revision FROM history_revisions WHERE app_user_id = ?", [.text(appUserId)])
            }
        } catch {
            throw error.storeError()
        }
    }

    /// One write: the transactions through ``TransactionRecorder`` under `keep` (with the adoption of pending
    /// notifications, as ``CustomerStore/record(_:for:policy:at:)``), the renewal infos by newer-wins, and the revision.
    public func reconcile(_ transactions: [StoredTransaction], renewalInfos: [StoredRenewalInfo], revision: String?,
                          for appUserId: String, at date: Date) throws(CustomerStoreError) -> ReconcileOutcome {
        var prepared: [PreparedTransaction] = []
        for transaction in transactions { prepared.append(try PreparedTransaction(transaction)) }
        var infos: [PreparedRenewalInfo] = []
        for info in renewalInfos { infos.append(try PreparedRenewalInfo(info.renewalInfo, signed: info.signedRenewalInfo)) }
        let items = prepared, renewals = infos
        return try write { (connection) throws(SQLiteError) -> ReconcileOutcome in
            let outcome = try SQLiteTransactionRows(connection: connection)
                .reconcile(items, renewalInfos: renewals, for: appUserId, credits: credits, date: date)
            if let revision {
                try connection.ensureCustomer(appUserId)
                try connection.execute("""
                    INSERT INTO history_revisions (app_user_id, revision, updated_at) VALUES (?1, ?2, ?3)
                    ON CONFLICT (app_user_id) DO UPDATE SET revision = ?2, updated_at = ?3
                    """, [.text(appUserId), .text(revision), .integer(date.millisecondsSince1970)])
            }
            return outcome
        }
    }
}
