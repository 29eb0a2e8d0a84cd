import CSQLite
import Foundation
import TallyCore
import TallyStorage
import TallySQLite

extension SQLiteTransactionRows: NotificationRows {
    /// Nothing to hand on: the notification's row is written whole by ``settle(_:_:result:owner:date:)``.
    typealias Claim = Void

    /// Nil when the `notificationUUID` is stored; nothing is written yet (one writer at a time).
    func claim(_ item: PreparedNotification, date: Date) throws(SQLiteError) -> Void? {
        try connection.integer("SELECT 1 FROM notifications WHERE notification_uuid = ?",
                               [.text(item.stored.notificationUUID)]) == nil ? () : nil
    }

    func settle(_ claim: Void, _ item: PreparedNotification, result: NotificationResult, owner: String?,
                date: Date) throws(SQLiteError) {
        let notification = item.stored
        try connection.execute("""
            INSERT INTO notifications (notification_uuid, notification_type, subtype, signed_date_ms,
                original_transaction_id, app_account_token, app_user_id, result, signed_payload, transaction_payload,
                signed_transaction, renewal_payload, signed_renewal_info, received_at, applied_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [
                .text(notification.notificationUUID), .text(notification.notificationType),
                .optionalText(notification.subtype), .integer(notification.signedDate.millisecondsSince1970),
                .optionalText(item.chain), .optionalText(notification.appAccountToken), .optionalText(owner),
                .text(result.rawValue), .text(notification.signedPayload), .optionalText(item.transaction?.json),
                .optionalText(item.transaction?.stored.signedTransaction), .optionalText(item.renewalInfo?.json),
                .optionalText(item.renewalInfo?.signed), .integer(date.millisecondsSince1970),
                owner == nil ? .null : .integer(date.millisecondsSince1970),
            ])
    }

    func pendingNotifications(for chain: String) throws(SQLiteError) -> [PendingNotification] {
        var waiting: [PendingNotification] = []
        try connection.query("""
            SELECT sequence, notification_uuid, transaction_payload, signed_transaction, renewal_payload,
                signed_renewal_info FROM notifications
            WHERE original_transaction_id = ? AND result = 'pending' ORDER BY received_at, sequence
            """, [.text(chain)]) { (row) throws(SQLiteError) in
            let uuid = try row.requiredText(1)
            var item = PendingNotification(sequence: row.int64(0), transaction: nil, renewalInfo: nil)
            if let json = row.text(2) {
                let transaction = try StoredValueCoding.transaction(json: json, id: "of notification \(uuid)")
                item.transaction = try Self.prepared(
                    StoredTransaction(transaction: transaction, source: .signedTransaction, signedTransaction: row.text(3)))
            }
            if let json = row.text(4) {
                item.renewalInfo = PreparedRenewalInfo(
                    json: json, normalized: try NotificationValueCoding.renewalInfo(json: json, chain: chain),
                    signed: row.text(5))
            }
            waiting.append(item)
        }
        return waiting
    }

    func settlePending(_ sequence: Int64, result: NotificationResult, owner: String, date: Date) throws(SQLiteError) {
        try connection.execute("""
            UPDATE notifications SET result = ?, app_user_id = ?, applied_at = ? WHERE sequence = ?
            """, [.text(result.rawValue), .text(owner), .integer(date.millisecondsSince1970), .integer(sequence)])
    }

    func storedRenewalInfo(of chain: String) throws(SQLiteError) -> RenewalInfo? {
        try connection.text("SELECT payload FROM renewal_infos WHERE original_transaction_id = ?", [.text(chain)])
            .map { (json) throws(SQLiteError) in try NotificationValueCoding.renewalInfo(json: json, chain: chain) }
    }

    func writeRenewalInfo(_ info: PreparedRenewalInfo, date: Date) throws(SQLiteError) {
        try connection.execute("""
            INSERT INTO renewal_infos (original_transaction_id, payload, signed_renewal_info, updated_at)
            VALUES (?, ?, ?, ?)
            ON CONFLICT (original_transaction_id) DO UPDATE SET payload = excluded.payload,
                signed_renewal_info = excluded.signed_renewal_info, updated_at = excluded.updated_at
            """, [.text(info.normalized.originalTransactionId), .text(info.json), .optionalText(info.signed),
                  .integer(date.millisecondsSince1970)])
    }

    /// A stored transaction prepared again; a copy that no longer encodes is a corrupt row.
    private static func prepared(_ stored: StoredTransaction) throws(SQLiteError) -> PreparedTransaction {
        do {
            return try PreparedTransaction(stored)
        } catch {
            throw SQLiteError(code: SQLITE_CORRUPT, "a pending notification's transaction does not encode: \(error.message)")
        }
    }
}
