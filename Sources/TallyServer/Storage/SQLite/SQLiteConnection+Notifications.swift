import Foundation
import TallyCore

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

    /// Stores `info` as its chain's renewal info when it supersedes the stored copy (or none is stored);
    /// returns whether anything changed.
    func storeRenewalInfo(_ info: PreparedRenewalInfo, date: Date) throws(SQLiteError) -> Bool {
        let chain = info.normalized.originalTransactionId
        if let json = try text("SELECT payload FROM renewal_infos WHERE original_transaction_id = ?", [.text(chain)]) {
            let stored = try NotificationValueCoding.renewalInfo(json: json, chain: chain)
            guard stored != info.normalized, info.normalized.supersedes(stored) else { return false }
        }
        try execute("""
            INSERT INTO renewal_infos (original_transaction_id, payload, signed_renewal_info, updated_at)
            VALUES (?, ?, ?, ?)
            ON CONFLICT (original_transaction_id) DO UPDATE SET payload = excluded.payload,
                signed_renewal_info = excluded.signed_renewal_info, updated_at = excluded.updated_at
            """, [.text(chain), .text(info.json), .optionalText(info.signed), .integer(date.millisecondsSince1970)])
        return true
    }
}

/// Renewal info made ready before the write transaction: its JSON and the value it reads back as.
struct PreparedRenewalInfo: Sendable {
    /// TallyCore's JSON of the renewal info.
    var json: String
    /// The renewal info as it reads back from ``json``.
    var normalized: RenewalInfo
    /// `signedRenewalInfo` as received.
    var signed: String?

    /// Encodes `info`.
    init(_ info: RenewalInfo, signed: String?) throws(CustomerStoreError) {
        json = try NotificationValueCoding.json(info)
        normalized = try NotificationValueCoding.normalized(info)
        self.signed = signed
    }

    /// Reads a stored payload back.
    init(json: String, signed: String?, chain: String) throws(SQLiteError) {
        self.json = json
        normalized = try NotificationValueCoding.renewalInfo(json: json, chain: chain)
        self.signed = signed
    }
}
