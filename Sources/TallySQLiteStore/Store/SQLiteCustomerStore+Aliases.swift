import Foundation
import TallyCore
import TallyStorage
import TallySQLite

extension SQLiteCustomerStore {
    /// Aliases `alias` to `appUserId` and moves the anonymous customer's rows, in one write (see
    /// ``CustomerStore/alias(_:to:at:)``).
    public func alias(_ alias: String, to appUserId: String, at date: Date) throws(CustomerStoreError) -> AliasOutcome {
        try write { (connection) throws(SQLiteError) -> AliasOutcome in
            let existing = try connection.text("SELECT app_user_id FROM aliases WHERE alias = ?", [.text(alias)])
            if let existing, !existing.hasSameBytes(as: appUserId) { return .conflict(owner: existing) }
            try connection.ensureCustomer(appUserId)
            try connection.ensureCustomer(alias)
            if existing == nil {
                try connection.execute("INSERT INTO aliases (alias, app_user_id, created_ms) VALUES (?, ?, ?)",
                                       [.text(alias), .text(appUserId), .integer(date.millisecondsSince1970)])
            }
            try connection.moveCustomer(alias, into: appUserId)
            return existing == nil ? .aliased : .unchanged
        }
    }

    /// The customer `alias` names, from a reader.
    public func customerId(aliasedBy alias: String) throws(CustomerStoreError) -> String? {
        do {
            return try readers.withConnection { (connection) throws(SQLiteError) -> String? in
                try connection.text("SELECT app_user_id FROM aliases WHERE alias = ?", [.text(alias)])
            }
        } catch {
            throw error.storeError()
        }
    }

    /// The customer's aliases, oldest first, from a reader.
    public func aliases(of appUserId: String) throws(CustomerStoreError) -> [CustomerAlias] {
        do {
            return try readers.withConnection { (connection) throws(SQLiteError) -> [CustomerAlias] in
                var found: [CustomerAlias] = []
                try connection.query("""
                    SELECT alias, created_ms FROM aliases WHERE app_user_id = ? ORDER BY created_ms, alias
                    """, [.text(appUserId)]) { (row) throws(SQLiteError) in
                    found.append(CustomerAlias(alias: try row.requiredText(0),
                                               created: Date(millisecondsSince1970: row.int64(1))))
                }
                return found
            }
        } catch {
            throw error.storeError()
        }
    }
}

extension SQLiteConnection {
    /// Moves every row of `anonymous` to `target` (inside the caller's write): chains with their transactions,
    /// spends (one whose id `target` already used is kept under a prefixed id, so its amount still counts), nets,
    /// notifications, the minted account token when `target` has none, and attributes `target` lacks (within the
    /// bound). Marks of superseded periods are cleared for `target` (computed again by its next write); the history
    /// cursor of `anonymous` is dropped. Both versions grow.
    func moveCustomer(_ anonymous: String, into target: String) throws(SQLiteError) {
        let from = SQLiteValue.text(anonymous), to = SQLiteValue.text(target)
        try execute("UPDATE chains SET app_user_id = ? WHERE app_user_id = ?", [to, from])
        try execute("UPDATE transactions SET app_user_id = ? WHERE app_user_id = ?", [to, from])
        try execute("UPDATE OR IGNORE spends SET app_user_id = ? WHERE app_user_id = ?", [to, from])
        try execute("UPDATE OR IGNORE spends SET app_user_id = ?, spend_id = ? || spend_id WHERE app_user_id = ?",
                    [to, .text(anonymous + ":"), from])
        for (currency, net) in try nets(of: anonymous) where net != 0 {
            try addToNet(of: target, currency: currency, net)
        }
        try execute("DELETE FROM balances WHERE app_user_id = ?", [from])
        try execute("UPDATE notifications SET app_user_id = ? WHERE app_user_id = ?", [to, from])
        try execute("DELETE FROM history_revisions WHERE app_user_id = ?", [from])
        try execute("""
            UPDATE account_tokens SET app_user_id = ?
            WHERE app_user_id = ? AND NOT EXISTS (SELECT 1 FROM account_tokens WHERE app_user_id = ?)
            """, [to, from, to])
        let merged = CustomerAttributes.adopting(try attributes(of: anonymous), into: try attributes(of: target))
        try execute("DELETE FROM attributes WHERE app_user_id = ?", [from])
        for (key, value) in merged.added {
            try execute("INSERT INTO attributes (app_user_id, key, value) VALUES (?, ?, ?)", [to, .text(key), .text(value)])
        }
        try SQLiteTransactionRows(connection: self).clearSupersessions(of: target)
        try bumpVersion(of: anonymous)
        try bumpVersion(of: target)
    }

    /// The customer's attributes.
    func attributes(of appUserId: String) throws(SQLiteError) -> [String: String] {
        var found: [String: String] = [:]
        try query("SELECT key, value FROM attributes WHERE app_user_id = ?", [.text(appUserId)]) { (row) throws(SQLiteError) in
            found[try row.requiredText(0)] = try row.requiredText(1)
        }
        return found
    }

    /// The customer `owner` names: the identified customer an anonymous `owner` is aliased to, else `owner`.
    func resolvingAlias(_ owner: String) throws(SQLiteError) -> String {
        guard AnonymousCustomerId.isAnonymous(owner) else { return owner }
        return try text("SELECT app_user_id FROM aliases WHERE alias = ?", [.text(owner)]) ?? owner
    }
}
