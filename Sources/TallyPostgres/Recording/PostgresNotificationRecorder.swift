import Foundation
import TallyCore
import TallyServer

/// Stores and applies notifications inside one PostgreSQL transaction, and applies those waiting for a chain
/// once it has an owner, by the same rules as the SQLite store's recorder.
struct PostgresNotificationRecorder {
    let connection: PostgresConnection
    let credits: CurrencyCredits
    let date: Date
    private(set) var changed: [String] = []

    init(connection: PostgresConnection, credits: CurrencyCredits, date: Date) {
        self.connection = connection
        self.credits = credits
        self.date = Date(millisecondsSince1970: date.millisecondsSince1970)
    }

    /// Inserts the notification first (`ON CONFLICT (notification_uuid) DO NOTHING`: a second delivery, on this
    /// server or another, waits for the first to commit and finds it, a duplicate), then applies it or leaves it
    /// pending, under its chain's lock.
    mutating func record(_ item: PreparedNotice) throws(PostgresError) -> NotificationOutcome {
        let notification = item.stored
        let chain = item.chain
        if let chain { try connection.lockChains([chain]) }
        let inserted = try connection.query("""
            INSERT INTO notifications (notification_uuid, notification_type, subtype, signed_date_ms,
                original_transaction_id, app_account_token, app_user_id, result, signed_payload, transaction_payload,
                signed_transaction, renewal_payload, signed_renewal_info, received_at, applied_at)
            VALUES ($1, $2, $3, $4::bigint, $5, $6, NULL, 'pending', $7, $8, $9, $10, $11, $12::bigint, NULL)
            ON CONFLICT (notification_uuid) DO NOTHING RETURNING sequence
            """, [
                .bytes(notification.notificationUUID), .text(notification.notificationType),
                .optionalText(notification.subtype), .integer(notification.signedDate.millisecondsSince1970),
                .optionalBytes(chain), .optionalBytes(notification.appAccountToken),
                .bytes(notification.signedPayload), .optionalText(item.transaction?.json),
                .optionalBytes(item.transaction?.stored.signedTransaction), .optionalText(item.renewalInfo?.json),
                .optionalBytes(item.renewalInfo?.signed), .integer(date.millisecondsSince1970),
            ])
        guard inserted.count == 1, let sequence = try inserted.integer(0, 0) else {
            return NotificationOutcome(result: .duplicate)
        }
        var owner: String?
        let result: NotificationResult
        if !item.hasFacts {
            result = .recorded
        } else if let found = try self.owner(chain: chain, token: notification.appAccountToken) {
            owner = found
            result = try apply(transaction: item.transaction, renewalInfo: item.renewalInfo, to: found)
        } else {
            result = .pending
        }
        if result != .pending {
            if let owner { try connection.lockCustomer(owner) }
            try connection.query("""
                UPDATE notifications SET result = $1, app_user_id = $2, applied_at = $3 WHERE sequence = $4::bigint
                """, [.text(result.rawValue), .optionalBytes(owner),
                      owner == nil ? .null : .integer(date.millisecondsSince1970), .integer(sequence)])
        }
        if owner != nil, let chain { try adopt(chain: chain) }
        return NotificationOutcome(result: result, appUserId: owner, customersChanged: changed)
    }

    /// Applies every notification pending for `chain` (locked by the caller) to its owner, oldest received first.
    mutating func adopt(chain: String) throws(PostgresError) {
        let rows = try connection.query("""
            SELECT sequence, notification_uuid, transaction_payload, signed_transaction, renewal_payload, signed_renewal_info
            FROM notifications WHERE original_transaction_id = $1 AND result = 'pending'
            ORDER BY received_at, sequence FOR UPDATE
            """, [.bytes(chain)])
        guard rows.count > 0, let owner = try owner(chain: chain, token: nil) else { return }
        for row in 0..<rows.count {
            let uuid = try rows.requiredBytes(row, 1)
            var transaction: PreparedTransaction?
            if let json = rows.text(row, 2) {
                let value = try PostgresCoding.transaction(json: json, id: "of notification \(uuid.prefix(64))")
                let signed = try rows.bytes(row, 3)
                do throws(CustomerStoreError) {
                    transaction = try PreparedTransaction(StoredTransaction(transaction: value, source: .signedTransaction,
                                                                     signedTransaction: signed))
                } catch {
                    throw .corrupt("a pending notification's transaction does not encode: \(error.message)")
                }
            }
            let renewal = try rows.text(row, 4).map { (json) throws(PostgresError) in
                try PreparedRenewal(json: json, signed: try rows.bytes(row, 5), chain: chain)
            }
            let result = try apply(transaction: transaction, renewalInfo: renewal, to: owner)
            try connection.lockCustomer(owner)
            try connection.query("""
                UPDATE notifications SET result = $1, app_user_id = $2, applied_at = $3::bigint WHERE sequence = $4::bigint
                """, [.text(result.rawValue), .bytes(owner), .integer(date.millisecondsSince1970),
                      .integer(try rows.integer(row, 0) ?? 0)])
        }
    }

    private mutating func apply(transaction: PreparedTransaction?, renewalInfo: PreparedRenewal?,
                                to owner: String) throws(PostgresError) -> NotificationResult {
        var changedAnything = false
        if let transaction {
            try connection.lockChains([transaction.normalized.originalTransactionId])
            var recorder = TransactionRecorder(rows: PostgresTransactionRows(connection: connection), appUserId: owner, policy: .keep,
                                                       credits: credits, date: date)
            try recorder.store(transaction)
            let outcome = try recorder.finish()
            changedAnything = outcome.changedAnything || !outcome.ownersUpdated.isEmpty
        }
        if let renewalInfo {
            let chain = renewalInfo.normalized.originalTransactionId
            try connection.lockChains([chain])
            if try connection.owner(ofChain: chain) == nil { try connection.insertChain(chain, owner: owner) }
            if try connection.storeRenewalInfo(renewalInfo, date: date) {
                try connection.bumpVersion(of: owner)
                changedAnything = true
            }
        }
        if changedAnything, !changed.contains(where: { $0.hasSameBytes(as: owner) }) { changed.append(owner) }
        return changedAnything ? .applied : .unchanged
    }

    private func owner(chain: String?, token: String?) throws(PostgresError) -> String? {
        if let chain, let owner = try connection.owner(ofChain: chain) { return owner }
        guard let token else { return nil }
        return try connection.owner(ofToken: token)
    }

    /// Adopts the pending notifications of each chain (once per chain) after a post, adding every customer
    /// they changed to `outcome`'s ``TallyServer/RecordOutcome/ownersUpdated``.
    mutating func adoptAll(_ chains: [String], into outcome: inout RecordOutcome) throws(PostgresError) {
        var seen = Set<UTF8Key>()
        for chain in chains where seen.insert(UTF8Key(chain)).inserted {
            try adopt(chain: chain)
        }
        for customer in changed where !outcome.ownersUpdated.contains(where: { $0.hasSameBytes(as: customer) }) {
            outcome.ownersUpdated.append(customer)
        }
    }
}
