import Foundation
import TallyCore
import TallyStorage

extension PostgresCustomerStore {
    /// Aliases `alias` to `appUserId` and moves the anonymous customer's rows, in one transaction holding both
    /// customers' row locks (the anonymous one first, the order every write for an anonymous id takes them), so no
    /// write of either lands between the check and the move (see ``TallyServer/CustomerStore/alias(_:to:at:)``).
    public func alias(_ alias: String, to appUserId: String, at date: Date) throws(CustomerStoreError) -> AliasOutcome {
        try write("the alias cannot be stored") { (connection) throws(PostgresError) -> AliasOutcome in
            try connection.lockCustomer(alias)
            let rows = try connection.query("SELECT app_user_id FROM aliases WHERE alias = $1", [.bytes(alias)])
            let existing = rows.count == 0 ? nil : try rows.requiredBytes(0, 0)
            if let existing, !existing.hasSameBytes(as: appUserId) { return .conflict(owner: existing) }
            try connection.lockCustomer(appUserId)
            if existing == nil {
                try connection.query("INSERT INTO aliases (alias, app_user_id, created_ms) VALUES ($1, $2, $3::bigint)",
                                     [.bytes(alias), .bytes(appUserId), .integer(date.millisecondsSince1970)])
            }
            try connection.moveCustomer(alias, into: appUserId)
            return existing == nil ? .aliased : .unchanged
        }
    }

    /// The customer `alias` names.
    public func customerId(aliasedBy alias: String) throws(CustomerStoreError) -> String? {
        try read("the alias cannot be read") { (connection) throws(PostgresError) -> String? in
            let rows = try connection.query("SELECT app_user_id FROM aliases WHERE alias = $1", [.bytes(alias)])
            return rows.count == 0 ? nil : try rows.requiredBytes(0, 0)
        }
    }

    /// The customer's aliases, oldest first.
    public func aliases(of appUserId: String) throws(CustomerStoreError) -> [CustomerAlias] {
        try read("the aliases cannot be read") { (connection) throws(PostgresError) -> [CustomerAlias] in
            let rows = try connection.query("""
                SELECT alias, created_ms FROM aliases WHERE app_user_id = $1 ORDER BY created_ms, alias
                """, [.bytes(appUserId)])
            var found: [CustomerAlias] = []
            for row in 0..<rows.count {
                found.append(CustomerAlias(alias: try rows.requiredBytes(row, 0),
                                           created: Date(millisecondsSince1970: try rows.integer(row, 1) ?? 0)))
            }
            return found
        }
    }

    /// The customer's attributes.
    public func attributes(of appUserId: String) throws(CustomerStoreError) -> [String: String] {
        try read("the attributes cannot be read") { (connection) throws(PostgresError) -> [String: String] in
            try connection.attributes(of: appUserId)
        }
    }

    /// Merges the changes under the customer's row lock, judged against the attributes committed before it.
    public func setAttributes(_ changes: [String: String?], for appUserId: String) throws(CustomerStoreError)
        -> [String: String]
    {
        let result = try write("the attributes cannot be stored") {
            (connection) throws(PostgresError) -> Result<[String: String], CustomerAttributesProblem> in
            let owner = try connection.lockResolvingAlias(appUserId)
            try connection.lockCustomer(owner)
            let merged = CustomerAttributes.merged(try connection.attributes(of: owner), with: changes)
            guard case .success = merged else { return merged }
            for (key, value) in changes {
                if let value = value {
                    try connection.query("""
                        INSERT INTO attributes (app_user_id, key, value) VALUES ($1, $2, $3)
                        ON CONFLICT (app_user_id, key) DO UPDATE SET value = EXCLUDED.value
                        """, [.bytes(owner), .bytes(key), .bytes(value)])
                } else {
                    try connection.query("DELETE FROM attributes WHERE app_user_id = $1 AND key = $2",
                                         [.bytes(owner), .bytes(key)])
                }
            }
            return merged
        }
        switch result {
        case .success(let after): return after
        case .failure(let problem): throw CustomerStoreError(.refused, problem.message, underlying: problem)
        }
    }
}

extension PostgresConnection {
    /// For an anonymous id: locks its row (the lock ``PostgresCustomerStore/alias(_:to:at:)`` takes first), then
    /// answers the customer it is aliased to, else the id itself; any other id is answered as it is, unlocked. A write
    /// for an id that was aliased while the caller looked so lands with the identified customer.
    func lockResolvingAlias(_ appUserId: String) throws(PostgresError) -> String {
        guard AnonymousCustomerId.isAnonymous(appUserId) else { return appUserId }
        try lockCustomer(appUserId)
        return try aliasTarget(appUserId) ?? appUserId
    }

    /// The customer an anonymous id is aliased to; nil when none (or for any other id, which is never an alias).
    func aliasTarget(_ appUserId: String) throws(PostgresError) -> String? {
        guard AnonymousCustomerId.isAnonymous(appUserId) else { return nil }
        let rows = try query("SELECT app_user_id FROM aliases WHERE alias = $1", [.bytes(appUserId)])
        return rows.count == 0 ? nil : try rows.requiredBytes(0, 0)
    }

    /// The customer's attributes.
    func attributes(of appUserId: String) throws(PostgresError) -> [String: String] {
        let rows = try query("SELECT key, value FROM attributes WHERE app_user_id = $1", [.bytes(appUserId)])
        var found: [String: String] = [:]
        for row in 0..<rows.count { found[try rows.requiredBytes(row, 0)] = try rows.requiredBytes(row, 1) }
        return found
    }

    /// Moves every row of `anonymous` to `target` inside the caller's transaction (both rows locked), as the SQLite
    /// store does: chains with their transactions, spends (one whose id `target` already used under a prefixed id),
    /// nets, notifications, the minted account token when `target` has none, attributes `target` lacks (within the
    /// bound); `target`'s supersession marks are cleared, the history cursor of `anonymous` dropped, both versions grow.
    func moveCustomer(_ anonymous: String, into target: String) throws(PostgresError) {
        let from = PostgresValue.bytes(anonymous), to = PostgresValue.bytes(target)
        try query("UPDATE chains SET app_user_id = $2 WHERE app_user_id = $1", [from, to])
        try query("UPDATE transactions SET app_user_id = $2 WHERE app_user_id = $1", [from, to])
        try query("""
            UPDATE spends s SET app_user_id = $2 WHERE s.app_user_id = $1
            AND NOT EXISTS (SELECT 1 FROM spends t WHERE t.app_user_id = $2 AND t.spend_id = s.spend_id)
            """, [from, to])
        try query("UPDATE spends SET app_user_id = $2, spend_id = $3 || spend_id WHERE app_user_id = $1",
                  [from, to, .bytes(anonymous + ":")])
        try query("""
            INSERT INTO balances (app_user_id, currency, net) SELECT $2, currency, net FROM balances WHERE app_user_id = $1
            ON CONFLICT (app_user_id, currency) DO UPDATE SET net = balances.net + EXCLUDED.net
            """, [from, to])
        try query("DELETE FROM balances WHERE app_user_id = $1", [from])
        try query("UPDATE notifications SET app_user_id = $2 WHERE app_user_id = $1", [from, to])
        try query("DELETE FROM history_revisions WHERE app_user_id = $1", [from])
        try query("""
            UPDATE account_tokens SET app_user_id = $2
            WHERE app_user_id = $1 AND NOT EXISTS (SELECT 1 FROM account_tokens WHERE app_user_id = $2)
            """, [from, to])
        let merged = CustomerAttributes.adopting(try attributes(of: anonymous), into: try attributes(of: target))
        try query("DELETE FROM attributes WHERE app_user_id = $1", [from])
        for (key, value) in merged.added {
            try query("INSERT INTO attributes (app_user_id, key, value) VALUES ($1, $2, $3)", [to, .bytes(key), .bytes(value)])
        }
        try PostgresTransactionRows(connection: self).clearSupersessions(of: target)
        try bumpVersion(of: anonymous)
        try bumpVersion(of: target)
    }
}
