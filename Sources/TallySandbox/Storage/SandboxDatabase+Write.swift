import Foundation
import TallySQLite
import TallyCore

extension SandboxDatabase {
    /// Saves a change: the store row (its generation goes up by one), the rows of each account that differ from
    /// `original` (the accounts as read before the change), the new events and their notifications (signed by
    /// `signer`, asked for only when there is one to sign). Inside the caller's write transaction.
    func saveChange(_ sandbox: Sandbox, original: [String: AccountRecord],
                    signer: () throws -> SandboxSigner) throws {
        try write("UPDATE store SET generation = generation + 1, now_ms = ?, body = ? WHERE id = 1",
                  [.integer(sandbox.now.millisecondsSince1970), .text(try SandboxJSON.encode(sandbox.header))])
        for (name, record) in sandbox.accounts where original[name] != record {
            try writeAccount(name, old: original[name], new: record)
        }
        for event in sandbox.events { try insert(event) }
        try saveNotifications(sandbox, signer: signer)
    }

    /// Writes a whole sandbox into an empty database (creation, migration) or over a whole one (``SandboxDirectory/save(_:)``).
    func saveWhole(_ sandbox: Sandbox) throws(SandboxError) {
        for statement in ["DELETE FROM accounts", "DELETE FROM transactions", "DELETE FROM chains",
                          "DELETE FROM unfinished", "DELETE FROM events"] {
            try write(statement, [])
        }
        try write("""
            INSERT INTO store (id, format, generation, now_ms, body) VALUES (1, ?1, 1, ?2, ?3)
            ON CONFLICT (id) DO UPDATE SET format = ?1, generation = generation + 1, now_ms = ?2, body = ?3
            """, [.integer(Self.format), .integer(sandbox.now.millisecondsSince1970),
                  .text(try SandboxJSON.encode(sandbox.header))])
        for (name, record) in sandbox.accounts { try writeAccount(name, old: nil, new: record) }
        for event in sandbox.events { try insert(event) }
    }

    /// Writes what changed in one account's record.
    private func writeAccount(_ name: String, old: AccountRecord?, new: AccountRecord) throws(SandboxError) {
        let account = SQLiteValue.text(name)
        let info = AccountInfo(new)
        if old.map(AccountInfo.init) != info {
            try write("INSERT INTO accounts (name, body) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET body = ?2",
                      [account, .text(try SandboxJSON.encode(info))])
        }
        let oldTransactions = old?.transactions ?? []
        for (position, transaction) in new.transactions.enumerated()
        where position >= oldTransactions.count || oldTransactions[position] != transaction {
            try write("""
                INSERT INTO transactions (transaction_id, account, position, body, order_id) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (transaction_id) DO UPDATE SET account = ?2, position = ?3, body = ?4, order_id = ?5
                """, [.text(transaction.transactionId), account, .integer(Int64(position)),
                      .text(try SandboxJSON.encode(transaction)),
                      .text(new.orderIds[transaction.transactionId]
                            ?? SandboxOrderId.of(transactionId: transaction.transactionId))])
        }
        for (group, chain) in new.chains where old?.chains[group] != chain {
            try write("""
                INSERT INTO chains (account, group_id, body) VALUES (?1, ?2, ?3)
                ON CONFLICT (account, group_id) DO UPDATE SET body = ?3
                """, [account, .text(group), .text(try SandboxJSON.encode(chain))])
        }
        for group in (old?.chains.keys).map(Array.init) ?? [] where new.chains[group] == nil {
            try write("DELETE FROM chains WHERE account = ? AND group_id = ?", [account, .text(group)])
        }
        let before = Self.deliveries(old), after = Self.deliveries(new)
        for delivery in before.subtracting(after) {
            try write("DELETE FROM unfinished WHERE account = ? AND device = ? AND transaction_id = ?",
                      [account, .text(delivery.device), .text(delivery.transactionId)])
        }
        for delivery in after.subtracting(before) {
            try write("""
                INSERT INTO unfinished (account, device, transaction_id, sequence) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (account, device, transaction_id) DO UPDATE SET sequence = ?4
                """, [account, .text(delivery.device), .text(delivery.transactionId),
                      .integer(Int64(delivery.sequence))])
        }
    }

    private struct Delivery: Hashable {
        var device: String
        var transactionId: String
        var sequence: Int
    }

    private static func deliveries(_ record: AccountRecord?) -> Set<Delivery> {
        var all: Set<Delivery> = []
        for (device, waiting) in record?.unfinished ?? [:] {
            for (id, sequence) in waiting { all.insert(Delivery(device: device, transactionId: id, sequence: sequence)) }
        }
        return all
    }

    private func insert(_ event: SandboxEvent) throws(SandboxError) {
        try write("INSERT INTO events (sequence, account, body) VALUES (?, ?, ?)",
                  [.integer(Int64(event.sequence)), .text(event.account), .text(try SandboxJSON.encode(event))])
    }

    /// Runs a writing statement, turning SQLite failures into sandbox errors.
    func write(_ sql: String, _ values: [SQLiteValue]) throws(SandboxError) {
        do { try execute(sql, values) } catch { throw error.sandboxError(path: path) }
    }
}
