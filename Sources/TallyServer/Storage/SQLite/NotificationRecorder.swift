import CSQLite
import Foundation
import TallyCore

/// Stores and applies notifications inside one write transaction, and applies the notifications waiting for
/// a chain once it has an owner (see ``CustomerStore/recordNotification(_:at:)``).
///
/// A notification's transaction goes through ``TransactionRecorder`` exactly as a posted one does (newer facts
/// win by ``TallyCore/Transaction/supersedes(_:)``, nets move with ``TallyCore/CurrencyCredits``), under
/// ``OwnershipPolicy/keep`` for the owner found, so a notification never moves ownership.
struct NotificationRecorder {
    let connection: SQLiteConnection
    let credits: CurrencyCredits
    /// When the write happened, at whole milliseconds.
    let date: Date
    /// Customers whose stored data changed, each once (compared by bytes).
    private(set) var changed: [String] = []

    init(connection: SQLiteConnection, credits: CurrencyCredits, date: Date) {
        self.connection = connection
        self.credits = credits
        self.date = Date(millisecondsSince1970: date.millisecondsSince1970)
    }

    /// Stores `item` (unless its `notificationUUID` is stored already) and applies it to its customer, or
    /// leaves it pending.
    mutating func record(_ item: PreparedNotification) throws(SQLiteError) -> NotificationOutcome {
        let notification = item.stored
        if try connection.integer("SELECT 1 FROM notifications WHERE notification_uuid = ?",
                                  [.text(notification.notificationUUID)]) != nil {
            return NotificationOutcome(result: .duplicate)
        }
        let chain = item.transaction?.normalized.originalTransactionId ?? item.renewalInfo?.normalized.originalTransactionId
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
        try connection.execute("""
            INSERT INTO notifications (notification_uuid, notification_type, subtype, signed_date_ms,
                original_transaction_id, app_account_token, app_user_id, result, signed_payload, transaction_payload,
                signed_transaction, renewal_payload, signed_renewal_info, received_at, applied_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [
                .text(notification.notificationUUID), .text(notification.notificationType),
                .optionalText(notification.subtype), .integer(notification.signedDate.millisecondsSince1970),
                .optionalText(chain), .optionalText(notification.appAccountToken), .optionalText(owner),
                .text(result.rawValue), .text(notification.signedPayload), .optionalText(item.transaction?.json),
                .optionalText(item.transaction?.stored.signedTransaction), .optionalText(item.renewalInfo?.json),
                .optionalText(item.renewalInfo?.signed), .integer(date.millisecondsSince1970),
                owner == nil ? .null : .integer(date.millisecondsSince1970),
            ])
        if owner != nil, let chain { try adopt(chain: chain) }
        return NotificationOutcome(result: result, appUserId: owner, customersChanged: changed)
    }

    /// Applies every notification pending for `chain` to the chain's owner, oldest received first; nothing
    /// when the chain has no owner or nothing waits.
    mutating func adopt(chain: String) throws(SQLiteError) {
        struct Waiting {
            var sequence: Int64
            var transaction: PreparedTransaction?
            var renewalInfo: PreparedRenewalInfo?
        }
        var waiting: [Waiting] = []
        try connection.query("""
            SELECT sequence, notification_uuid, transaction_payload, signed_transaction, renewal_payload,
                signed_renewal_info FROM notifications
            WHERE original_transaction_id = ? AND result = 'pending' ORDER BY received_at, sequence
            """, [.text(chain)]) { (row) throws(SQLiteError) in
            let uuid = try row.requiredText(1)
            var item = Waiting(sequence: row.int64(0))
            if let json = row.text(2) {
                let transaction = try StoredValueCoding.transaction(json: json, id: "of notification \(uuid)")
                item.transaction = try Self.prepared(
                    StoredTransaction(transaction: transaction, source: .signedTransaction, signedTransaction: row.text(3)))
            }
            if let json = row.text(4) {
                item.renewalInfo = try PreparedRenewalInfo(json: json, signed: row.text(5), chain: chain)
            }
            waiting.append(item)
        }
        guard !waiting.isEmpty, let owner = try owner(chain: chain, token: nil) else { return }
        for item in waiting {
            let result = try apply(transaction: item.transaction, renewalInfo: item.renewalInfo, to: owner)
            try connection.execute("""
                UPDATE notifications SET result = ?, app_user_id = ?, applied_at = ? WHERE sequence = ?
                """, [.text(result.rawValue), .text(owner), .integer(date.millisecondsSince1970), .integer(item.sequence)])
        }
    }

    /// Stores the facts for `owner`: the transaction through ``TransactionRecorder``, the renewal info when it
    /// supersedes the chain's. `applied` when anything changed, else `unchanged`.
    private mutating func apply(transaction: PreparedTransaction?, renewalInfo: PreparedRenewalInfo?,
                                to owner: String) throws(SQLiteError) -> NotificationResult {
        var changedAnything = false
        if let transaction {
            var recorder = TransactionRecorder(rows: SQLiteTransactionRows(connection: connection), appUserId: owner, policy: .keep,
                                               credits: credits, date: date)
            try recorder.store(transaction)
            let outcome = try recorder.finish()
            changedAnything = outcome.changedAnything || !outcome.ownersUpdated.isEmpty
        }
        if let renewalInfo {
            let chain = renewalInfo.normalized.originalTransactionId
            if try chainOwner(chain) == nil {
                // Owned through its account token and no transaction to file it: the chain becomes the owner's.
                try connection.ensureCustomer(owner)
                try connection.execute("INSERT INTO chains (original_transaction_id, app_user_id) VALUES (?, ?)",
                                       [.text(chain), .text(owner)])
            }
            if try connection.storeRenewalInfo(renewalInfo, date: date) {
                try connection.bumpVersion(of: owner)
                changedAnything = true
            }
        }
        if changedAnything, !changed.contains(where: { $0.hasSameBytes(as: owner) }) { changed.append(owner) }
        return changedAnything ? .applied : .unchanged
    }

    /// The owner of `chain`, else of `token`; nil when neither is stored.
    private func owner(chain: String?, token: String?) throws(SQLiteError) -> String? {
        if let chain, let owner = try chainOwner(chain) { return owner }
        guard let token else { return nil }
        return try connection.text("SELECT app_user_id FROM account_tokens WHERE app_account_token = ?", [.text(token)])
    }

    private func chainOwner(_ chain: String) throws(SQLiteError) -> String? {
        try connection.text("SELECT app_user_id FROM chains WHERE original_transaction_id = ?", [.text(chain)])
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

extension NotificationRecorder {
    /// Adopts the pending notifications of each chain (once per chain, ids compared as bytes) after a post, adding every customer they
    /// changed to `outcome`'s ``RecordOutcome/ownersUpdated``.
    mutating func adoptAll(_ chains: [String], into outcome: inout RecordOutcome) throws(SQLiteError) {
        var seen = Set<UTF8Key>()
        for chain in chains where seen.insert(UTF8Key(chain)).inserted {
            try adopt(chain: chain)
        }
        for customer in changed where !outcome.ownersUpdated.contains(where: { $0.hasSameBytes(as: customer) }) {
            outcome.ownersUpdated.append(customer)
        }
    }
}
