import Foundation
import TallyCore
import TallyStorage
import TallySQLite

extension SQLiteConnection {
    /// The renewal infos of the subscription chains among `transactions` (the customer's), by chain: one primary
    /// key lookup per auto-renewable chain, so the cost does not grow with the customer's coin purchases (each of
    /// which is a chain of its own).
    func renewalInfos(for transactions: [StoredTransaction]) throws(SQLiteError) -> [RenewalInfo] {
        var chains: Set<UTF8Key> = []
        for stored in transactions where stored.transaction.type == .autoRenewable {
            chains.insert(UTF8Key(stored.transaction.originalTransactionId))
        }
        var infos: [RenewalInfo] = []
        for chain in chains.map(\.string).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let json = try text("SELECT payload FROM renewal_infos WHERE original_transaction_id = ?", [.text(chain)])
            else { continue }
            infos.append(try NotificationValueCoding.renewalInfo(json: json, chain: chain))
        }
        return infos
    }

    /// The notifications applied to `appUserId`, oldest received first.
    func notificationEntries(of appUserId: String) throws(SQLiteError) -> [NotificationEntry] {
        var entries: [NotificationEntry] = []
        try query("""
            SELECT notification_uuid, notification_type, subtype, signed_date_ms, original_transaction_id, result
            FROM notifications WHERE app_user_id = ? ORDER BY sequence
            """, [.text(appUserId)]) { (row) throws(SQLiteError) in
            let uuid = try row.requiredText(0)
            entries.append(NotificationEntry(
                notificationUUID: uuid, notificationType: try row.requiredText(1), subtype: row.text(2),
                signedDate: Date(millisecondsSince1970: row.int64(3)), originalTransactionId: row.text(4),
                result: try NotificationValueCoding.result(row.text(5), uuid: uuid)))
        }
        return entries
    }
}
