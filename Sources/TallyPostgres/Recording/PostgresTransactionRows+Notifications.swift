import Foundation
import TallyCore
import TallyStorage

extension PostgresTransactionRows: NotificationRows {
    /// The `sequence` of the notification's row, inserted by ``claim(_:date:)``.
    typealias Claim = Int64

    /// Inserts the notification first, pending (`ON CONFLICT (notification_uuid) DO NOTHING`: a second delivery,
    /// on this server or another, waits for the first to commit and finds it, a duplicate).
    func claim(_ item: PreparedNotification, date: Date) throws(PostgresError) -> Int64? {
        let notification = item.stored
        let inserted = try connection.query("""
            INSERT INTO notifications (notification_uuid, notification_type, subtype, signed_date_ms,
                original_transaction_id, app_account_token, app_user_id, result, signed_payload, transaction_payload,
                signed_transaction, renewal_payload, signed_renewal_info, received_at, applied_at)
            VALUES ($1, $2, $3, $4::bigint, $5, $6, NULL, 'pending', $7, $8, $9, $10, $11, $12::bigint, NULL)
            ON CONFLICT (notification_uuid) DO NOTHING RETURNING sequence
            """, [
                .bytes(notification.notificationUUID), .text(notification.notificationType),
                .optionalText(notification.subtype), .integer(notification.signedDate.millisecondsSince1970),
                .optionalBytes(item.chain), .optionalBytes(notification.appAccountToken),
                .bytes(notification.signedPayload), .optionalText(item.transaction?.json),
                .optionalBytes(item.transaction?.stored.signedTransaction), .optionalText(item.renewalInfo?.json),
                .optionalBytes(item.renewalInfo?.signed), .integer(date.millisecondsSince1970),
            ])
        guard inserted.count == 1 else { return nil }
        return try inserted.integer(0, 0)
    }

    /// Updates the row the claim inserted (a pending one stays as inserted); the owner's row is locked first.
    func settle(_ claim: Int64, _ item: PreparedNotification, result: NotificationResult, owner: String?,
                date: Date) throws(PostgresError) {
        guard result != .pending else { return }
        if let owner { try connection.lockCustomer(owner) }
        try connection.query("""
            UPDATE notifications SET result = $1, app_user_id = $2, applied_at = $3 WHERE sequence = $4::bigint
            """, [.text(result.rawValue), .optionalBytes(owner),
                  owner == nil ? .null : .integer(date.millisecondsSince1970), .integer(claim)])
    }

    /// The pending rows, locked (`FOR UPDATE`).
    func pendingNotifications(for chain: String) throws(PostgresError) -> [PendingNotification] {
        let rows = try connection.query("""
            SELECT sequence, notification_uuid, transaction_payload, signed_transaction, renewal_payload, signed_renewal_info
            FROM notifications WHERE original_transaction_id = $1 AND result = 'pending'
            ORDER BY received_at, sequence FOR UPDATE
            """, [.bytes(chain)])
        var waiting: [PendingNotification] = []
        for row in 0..<rows.count {
            let uuid = try rows.requiredBytes(row, 1)
            var item = PendingNotification(sequence: try rows.integer(row, 0) ?? 0, transaction: nil, renewalInfo: nil)
            if let json = rows.text(row, 2) {
                let value = try PostgresCoding.transaction(json: json, id: "of notification \(uuid.prefix(64))")
                let signed = try rows.bytes(row, 3)
                do throws(CustomerStoreError) {
                    item.transaction = try PreparedTransaction(StoredTransaction(
                        transaction: value, source: .signedTransaction, signedTransaction: signed))
                } catch {
                    throw .corrupt("a pending notification's transaction does not encode: \(error.message)")
                }
            }
            if let json = rows.text(row, 4) {
                item.renewalInfo = PreparedRenewalInfo(
                    json: json, normalized: try PostgresCoding.renewalInfo(json: json, chain: chain),
                    signed: try rows.bytes(row, 5))
            }
            waiting.append(item)
        }
        return waiting
    }

    func settlePending(_ sequence: Int64, result: NotificationResult, owner: String, date: Date) throws(PostgresError) {
        try connection.lockCustomer(owner)
        try connection.query("""
            UPDATE notifications SET result = $1, app_user_id = $2, applied_at = $3::bigint WHERE sequence = $4::bigint
            """, [.text(result.rawValue), .bytes(owner), .integer(date.millisecondsSince1970), .integer(sequence)])
    }

    /// The stored renewal info, its row locked (`FOR UPDATE`).
    func storedRenewalInfo(of chain: String) throws(PostgresError) -> RenewalInfo? {
        let rows = try connection.query("SELECT payload FROM renewal_infos WHERE original_transaction_id = $1 FOR UPDATE",
                                        [.bytes(chain)])
        guard rows.count > 0 else { return nil }
        return try PostgresCoding.renewalInfo(json: try rows.requiredText(0, 0), chain: chain)
    }

    func writeRenewalInfo(_ info: PreparedRenewalInfo, date: Date) throws(PostgresError) {
        try connection.query("""
            INSERT INTO renewal_infos (original_transaction_id, payload, signed_renewal_info, updated_at,
                in_billing_retry, grace_expires_ms)
            VALUES ($1, $2, $3, $4::bigint, $5::boolean, $6::bigint)
            ON CONFLICT (original_transaction_id) DO UPDATE SET payload = EXCLUDED.payload,
                signed_renewal_info = EXCLUDED.signed_renewal_info, updated_at = EXCLUDED.updated_at,
                in_billing_retry = EXCLUDED.in_billing_retry, grace_expires_ms = EXCLUDED.grace_expires_ms
            """, [.bytes(info.normalized.originalTransactionId), .text(info.json), .optionalBytes(info.signed),
                  .integer(date.millisecondsSince1970)] + PostgresCoding.dashboardValues(of: info.normalized))
    }
}
