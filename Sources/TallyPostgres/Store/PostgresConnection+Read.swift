import Foundation
import TallyCore
import TallyStorage

extension PostgresConnection {
    /// The state record of `appUserId` (version, nets, non-consumable transactions, their chains' renewal info)
    /// in one statement, so one snapshot. For a state at `now`, the periods superseded by then (TallyCore's
    /// `PeriodSupersession`) are left out; with no date, every transaction that is not a consumable is read.
    func customerStateRecord(_ appUserId: String, at now: Date? = nil) throws(PostgresError) -> CustomerRecord {
        try record(appUserId, sql: Self.stateSQL, parameters: Self.stateParameters(appUserId, at: now))
    }

    /// ``customerStateRecord(_:at:)`` and, in its ``TallyServer/CustomerRecord/spends``, the spend recorded with
    /// `spendId` (compared as bytes) if any, in one statement (one snapshot).
    func customerStateRecord(_ appUserId: String, withSpend spendId: String, at now: Date? = nil) throws(PostgresError)
        -> CustomerRecord
    {
        try record(appUserId, sql: Self.stateSQL + Self.spendSQL,
                   parameters: Self.stateParameters(appUserId, at: now) + [.bytes(spendId)])
    }

    /// Only the nets of `appUserId` and, in ``TallyServer/CustomerRecord/spends``, the spend recorded with `spendId`
    /// (compared as bytes) if any, in one statement: what a spend reads when the customer's kept state stands for the
    /// rest. The version is not read (the caller has it from the lock).
    func netsRecord(_ appUserId: String, withSpend spendId: String) throws(PostgresError) -> CustomerRecord {
        try record(appUserId, sql: Self.netsSQL, parameters: [.bytes(appUserId), .bytes(spendId)])
    }

    /// Everything stored for `appUserId`, in one statement (one snapshot).
    func customerRecord(_ appUserId: String) throws(PostgresError) -> CustomerRecord {
        try record(appUserId, sql: Self.wholeSQL, parameters: Array(Self.stateParameters(appUserId, at: nil).prefix(2)))
    }

    /// ``stateSQL`` without its condition on transactions (every one, consumables and superseded periods too), then
    /// the history: built once.
    private static let wholeSQL = stateSQL.replacingOccurrences(of: stateCondition, with: "") + historySQL

    // Columns: kind, id, t1, t2, t3, n, n2, id2, id3.
    private static let stateSQL = """
        SELECT 'v', NULL::bytea, NULL::text, NULL::text, NULL::text, version, facts_version, NULL::bytea, NULL::bytea
            FROM customers WHERE app_user_id = $1
        UNION ALL SELECT 'n', currency, net::text, NULL, NULL, NULL, NULL, NULL, NULL FROM balances WHERE app_user_id = $1
        UNION ALL SELECT 't', transaction_id, source, payload, NULL, NULL, NULL, NULL, signed_transaction
            FROM transactions WHERE app_user_id = $1\(stateCondition)
        UNION ALL SELECT 'r', original_transaction_id, payload, NULL, NULL, NULL, NULL, NULL, NULL FROM renewal_infos
            WHERE original_transaction_id IN (SELECT original_transaction_id FROM transactions
                                              WHERE app_user_id = $1 AND product_type = $2)
        """

    /// The version and the nets of `appUserId` (no transactions, no renewal info), in one statement.
    func versionAndNets(_ appUserId: String) throws(PostgresError) -> CustomerRecord {
        try record(appUserId, sql: Self.versionAndNetsSQL, parameters: [.bytes(appUserId)])
    }

    private static let versionAndNetsSQL = """
        SELECT 'v', NULL::bytea, NULL::text, NULL::text, NULL::text, version, facts_version, NULL::bytea, NULL::bytea
            FROM customers WHERE app_user_id = $1
        UNION ALL SELECT 'n', currency, net::text, NULL, NULL, NULL, NULL, NULL, NULL FROM balances WHERE app_user_id = $1
        """

    /// The state read's condition on transactions: no consumables, none superseded by `$3`.
    private static let stateCondition = " AND NOT consumable AND superseded_from_ms > $3::bigint"

    private static func stateParameters(_ appUserId: String, at now: Date?) -> [PostgresValue] {
        [.bytes(appUserId), .text(ProductType.autoRenewable.rawValue),
         .integer(SupersessionColumn.cutoff(at: now))]
    }

    private static let netsSQL = """
        SELECT 'n', currency, net::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bytea, NULL::bytea
            FROM balances WHERE app_user_id = $1
        UNION ALL SELECT 's', spend_id, amount::text, NULL, NULL, sequence, date_ms, currency, NULL
            FROM spends WHERE app_user_id = $1 AND spend_id = $2
        """

    private static let spendSQL = """

        UNION ALL SELECT 's', spend_id, amount::text, NULL, NULL, sequence, date_ms, currency, NULL
            FROM spends WHERE app_user_id = $1 AND spend_id = $4
        """

    private static let historySQL = """

        UNION ALL SELECT 's', spend_id, amount::text, NULL, NULL, sequence, date_ms, currency, NULL
            FROM spends WHERE app_user_id = $1
        UNION ALL SELECT 'x', original_transaction_id, NULL, NULL, NULL, sequence, date_ms, from_app_user_id, to_app_user_id
            FROM transfers WHERE from_app_user_id = $1 OR to_app_user_id = $1
        UNION ALL SELECT 'o', notification_uuid, notification_type, subtype, result, sequence, signed_date_ms,
                original_transaction_id, NULL
            FROM notifications WHERE app_user_id = $1
        """

    /// The transaction in a stored payload, decoded at most once while remembered (TallyServer's ``TallyServer/DecodedPayloads``).
    func decodedTransaction(json: String, id: String) throws(PostgresError) -> StoreTransaction {
        try decodedPayloads.transaction(json: json, id: id) { (text) throws(PostgresError) in
            try PostgresCoding.transaction(json: text, id: id)
        }
    }

    private func record(_ appUserId: String, sql: String, parameters: [PostgresValue]) throws(PostgresError)
        -> CustomerRecord
    {
        let rows = try query(sql, parameters)
        var record = CustomerRecord(appUserId: appUserId)
        var transactions: [(id: String, value: StoredTransaction)] = []
        var renewals: [(chain: String, info: RenewalInfo)] = []
        var spends: [(Int64, Spend)] = [], transfers: [(Int64, OwnershipTransfer)] = []
        var notifications: [(Int64, NotificationEntry)] = []
        for row in 0..<rows.count {
            switch rows.text(row, 0) {
            case "v":
                record.version = try rows.integer(row, 5) ?? 0
                record.factsVersion = try rows.integer(row, 6) ?? 0
            case "n":
                let currency = try rows.requiredBytes(row, 1)
                guard let net = try rows.decimal(row, 2) else { throw .corrupt("a balance of '\(currency.prefix(64))' is NULL") }
                record.nets[currency] = net
            case "t":
                let id = try rows.requiredBytes(row, 1)
                guard let source = StoredTransaction.Source(rawValue: try rows.requiredText(row, 2)) else {
                    throw .corrupt("transaction '\(id.prefix(64))' has an unknown stored source")
                }
                let transaction = try decodedTransaction(json: try rows.requiredText(row, 3), id: id)
                transactions.append((id, StoredTransaction(transaction: transaction, source: source,
                                                           signedTransaction: try rows.bytes(row, 8))))
            case "r":
                let chain = try rows.requiredBytes(row, 1)
                renewals.append((chain, try PostgresCoding.renewalInfo(json: try rows.requiredText(row, 2), chain: chain)))
            case "s":
                let id = try rows.requiredBytes(row, 1)
                guard let amount = try rows.decimal(row, 2) else { throw .corrupt("spend '\(id.prefix(64))' has no amount") }
                spends.append((try rows.integer(row, 5) ?? 0, Spend(
                    id: id, currency: try rows.requiredBytes(row, 7), amount: amount,
                    date: Date(millisecondsSince1970: try rows.integer(row, 6) ?? 0))))
            case "x":
                transfers.append((try rows.integer(row, 5) ?? 0, OwnershipTransfer(
                    originalTransactionId: try rows.requiredBytes(row, 1), fromAppUserId: try rows.requiredBytes(row, 7),
                    toAppUserId: try rows.requiredBytes(row, 8), date: Date(millisecondsSince1970: try rows.integer(row, 6) ?? 0))))
            case "o":
                let uuid = try rows.requiredBytes(row, 1)
                guard let result = NotificationResult(rawValue: try rows.requiredText(row, 4)) else {
                    throw .corrupt("notification '\(uuid.prefix(64))' has an unknown stored result")
                }
                notifications.append((try rows.integer(row, 5) ?? 0, NotificationEntry(
                    notificationUUID: uuid, notificationType: try rows.requiredText(row, 2), subtype: rows.text(row, 3),
                    signedDate: Date(millisecondsSince1970: try rows.integer(row, 6) ?? 0),
                    originalTransactionId: try rows.bytes(row, 7), result: result)))
            default:
                throw .corrupt("a customer read returned an unknown row kind")
            }
        }
        record.transactions = transactions.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }.map(\.value)
        record.renewalInfos = renewals.sorted { $0.chain.utf8.lexicographicallyPrecedes($1.chain.utf8) }.map(\.info)
        record.spends = spends.sorted { $0.0 < $1.0 }.map(\.1)
        record.transfers = transfers.sorted { $0.0 < $1.0 }.map(\.1)
        record.notifications = notifications.sorted { $0.0 < $1.0 }.map(\.1)
        return record
    }
}
