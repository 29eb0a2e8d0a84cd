import Foundation
import TallySQLite
import TallyCore

extension SandboxDatabase {
    /// What a cheap look at the store gives: its change counter and clock.
    struct Stamp: Sendable, Hashable {
        /// Goes up by one with every saved change.
        var generation: Int64
        /// The sandbox clock.
        var now: Date
    }

    /// The change counter and the clock, from the store row.
    func stamp() throws(SQLiteError) -> Stamp? {
        try withStatement("SELECT generation, now_ms FROM store WHERE id = 1", []) {
            (statement) throws(SQLiteError) -> Stamp? in
            guard try statement.step() else { return nil }
            return Stamp(generation: statement.int64(0), now: Date(millisecondsSince1970: statement.int64(1)))
        }
    }

    /// The store-wide row.
    func readHeader() throws(SandboxError) -> SandboxHeader {
        let body: String?
        do {
            body = try withStatement("SELECT body FROM store WHERE id = 1", []) {
                (statement) throws(SQLiteError) -> String? in try statement.step() ? try statement.requiredText(0) : nil
            }
        } catch {
            throw error.sandboxError(path: path)
        }
        guard let body else { throw SandboxError(.corruptState, "\(path) holds no sandbox (its store row is missing)") }
        return try SandboxJSON.decode(SandboxHeader.self, body, what: "the store row", path: path)
    }

    /// How many events the log holds (the highest sequence).
    func eventCount() throws(SandboxError) -> Int {
        do {
            return Int(try integer("SELECT COALESCE(MAX(sequence), 0) FROM events") ?? 0)
        } catch {
            throw error.sandboxError(path: path)
        }
    }

    /// The names of every account, sorted.
    func accountNames() throws(SandboxError) -> [String] {
        var names: [String] = []
        try run("SELECT name FROM accounts ORDER BY name", []) { (row) throws(SandboxError) in
            names.append(try column(row, 0))
        }
        return names
    }

    /// The account that made `transactionId` (one primary-key lookup); nil for an id never issued.
    func account(ofTransaction transactionId: String) throws(SandboxError) -> String? {
        var account: String?
        try run("SELECT account FROM transactions WHERE transaction_id = ?", [.text(transactionId)]) {
            (row) throws(SandboxError) in account = try column(row, 0)
        }
        return account
    }

    /// One account's record; nil when the account never did anything.
    func readAccount(_ name: String) throws(SandboxError) -> AccountRecord? {
        var info: AccountInfo?
        try run("SELECT body FROM accounts WHERE name = ?", [.text(name)]) { (row) throws(SandboxError) in
            info = try SandboxJSON.decode(AccountInfo.self, try column(row, 0), what: "account '\(name)'", path: path)
        }
        guard let info else { return nil }
        var record = AccountRecord()
        record.devices = info.devices
        record.introductoryOfferUsedGroups = Set(info.introductoryOfferUsedGroups)
        record.declinedPurchases = info.declinedPurchases
        record.refundRequests = info.refundRequests ?? []
        record.consumption = info.consumption ?? [:]
        record.purchaseIntents = info.purchaseIntents ?? []
        record.messages = info.messages ?? []
        record.sheetCalls = info.sheetCalls ?? []
        record.redeemedWinBackOffers = Set(info.redeemedWinBackOffers ?? [])
        try run("SELECT transaction_id, body, order_id FROM transactions WHERE account = ? ORDER BY position",
                [.text(name)]) { (row) throws(SandboxError) in
            let id = try column(row, 0)
            record.transactions.append(try SandboxJSON.decode(StoreTransaction.self, try column(row, 1),
                                                              what: "transaction \(id)", path: path))
            record.orderIds[id] = try column(row, 2)
        }
        record.reindex()
        try run("SELECT group_id, body FROM chains WHERE account = ?", [.text(name)]) { (row) throws(SandboxError) in
            let group = try column(row, 0)
            record.chains[group] = try SandboxJSON.decode(SubscriptionChain.self, try column(row, 1),
                                                          what: "the chain of '\(name)' in group \(group)", path: path)
        }
        try run("SELECT device, transaction_id, sequence FROM unfinished WHERE account = ?",
                [.text(name)]) { (row) throws(SandboxError) in
            record.unfinished[try column(row, 0), default: [:]][try column(row, 1)] = Int(row.int64(2))
        }
        return record
    }

    /// The events of the log in order: all of them, or those of one account ("" for store-wide ones).
    func readEvents(account: String? = nil) throws(SandboxError) -> [SandboxEvent] {
        var events: [SandboxEvent] = []
        let sql = account == nil ? "SELECT body FROM events ORDER BY sequence"
            : "SELECT body FROM events WHERE account = ? ORDER BY sequence"
        try run(sql, account.map { [.text($0)] } ?? []) { (row) throws(SandboxError) in
            events.append(try SandboxJSON.decode(SandboxEvent.self, try column(row, 0), what: "an event", path: path))
        }
        return events
    }

    /// Runs a query, turning SQLite failures into sandbox errors.
    func run(_ sql: String, _ values: [SQLiteValue],
             row: (SQLiteStatement) throws(SandboxError) -> Void) throws(SandboxError) {
        let statement: SQLiteStatement
        do {
            statement = try prepared(sql)
            try statement.bind(values)
        } catch {
            throw error.sandboxError(path: path)
        }
        defer { statement.reset() }
        while true {
            let more: Bool
            do { more = try statement.step() } catch { throw error.sandboxError(path: path) }
            guard more else { return }
            try row(statement)
        }
    }

    private func column(_ row: SQLiteStatement, _ index: Int32) throws(SandboxError) -> String {
        do { return try row.requiredText(index) } catch { throw error.sandboxError(path: path) }
    }
}
