import Foundation
import TallyCore
import TallyStorage

extension PostgresConnection {
    /// Creates the customer row when absent (version 0) and locks it until the transaction ends, in one
    /// statement (`ON CONFLICT … DO UPDATE` locks the existing row as `SELECT … FOR UPDATE` would, and leaves it
    /// as it was): every change to a customer's nets and version happens under this lock. Once per transaction.
    func lockCustomer(_ appUserId: String) throws(PostgresError) {
        guard lockedCustomers.insert(UTF8Key(appUserId)).inserted else { return }
        try query(Self.lockCustomerSQL, [.bytes(appUserId)])
    }

    /// The upsert that creates and locks a customer's row (one `$1`, the customer id).
    private static let lockCustomerSQL = """
        INSERT INTO customers (app_user_id, version) VALUES ($1, 0)
        ON CONFLICT (app_user_id) DO UPDATE SET version = customers.version
        """

    /// ``lockCustomer(_:)`` as the first lock of a transaction, returning the locked row's version, facts version and
    /// the state kept at that version, if any (the row as the lock left it: after every write committed before).
    func lockCustomerReadingKeptState(_ appUserId: String) throws(PostgresError)
        -> (version: Int64, factsVersion: Int64, kept: StoredCustomerState?)
    {
        lockedCustomers.insert(UTF8Key(appUserId))
        let rows = try query(Self.lockCustomerSQL + """

            RETURNING version, state_version, state_fingerprint, state_from_ms, state_until_ms, state_body, facts_version
            """, [.bytes(appUserId)])
        guard rows.count == 1, let version = try rows.integer(0, 0), let facts = try rows.integer(0, 6) else {
            throw .corrupt("locking customer '\(appUserId.prefix(64))' returned no version")
        }
        guard try rows.integer(0, 1) == version, let fingerprint = rows.text(0, 2), let from = try rows.integer(0, 3),
              let until = try rows.integer(0, 4), let body = rows.textBytes(0, 5)
        else { return (version, facts, nil) }
        return (version, facts, StoredCustomerState(version: version, fingerprint: fingerprint,
                                             validFrom: Date(millisecondsSince1970: from),
                                             validUntil: Date(millisecondsSince1970: until), body: body))
    }

    /// Adds one to the customer's version (the row is locked by then); with `factsToo` its facts version
    /// (TallyServer's `CustomerRecord/factsVersion`) becomes the new version as well (a write that moved only the
    /// nets passes false).
    func bumpVersion(of appUserId: String, factsToo: Bool = true) throws(PostgresError) {
        try lockCustomer(appUserId)
        try query(factsToo ? "UPDATE customers SET version = version + 1, facts_version = version + 1 WHERE app_user_id = $1"
                           : "UPDATE customers SET version = version + 1 WHERE app_user_id = $1", [.bytes(appUserId)])
    }

    /// The net kept for `appUserId` in `currency`; zero when none.
    func net(of appUserId: String, currency: String) throws(PostgresError) -> Decimal {
        let rows = try query("SELECT net::text FROM balances WHERE app_user_id = $1 AND currency = $2",
                             [.bytes(appUserId), .bytes(currency)])
        return rows.count == 0 ? 0 : try rows.decimal(0, 0) ?? 0
    }

    /// Adds `amount` (negative to take away) to the net of `appUserId` in `currency`, in the database
    /// (`net = net + amount`, exact `numeric`), after locking the customer.
    func addToNet(of appUserId: String, currency: String, _ amount: Decimal) throws(PostgresError) {
        try lockCustomer(appUserId)
        try query("""
            INSERT INTO balances (app_user_id, currency, net) VALUES ($1, $2, $3::numeric)
            ON CONFLICT (app_user_id, currency) DO UPDATE SET net = balances.net + EXCLUDED.net
            """, [.bytes(appUserId), .bytes(currency), .decimal(amount)])
    }

    /// Locks each chain for the rest of the transaction (`pg_advisory_xact_lock`, in a fixed order so two
    /// writes over the same chains never wait for each other crosswise); works for chains not stored yet.
    func lockChains(_ chains: [String]) throws(PostgresError) {
        var keys = Set<Int32>()
        for chain in chains { keys.insert(Self.lockKey(chain)) }
        for key in keys.sorted() {
            try query("SELECT pg_advisory_xact_lock(1, $1::integer)", [.integer(Int64(key))])
        }
    }

    /// A 32-bit FNV-1a hash of the id's bytes: the advisory lock key of a chain (a collision only serialises two
    /// chains that did not need it).
    static func lockKey(_ id: String) -> Int32 {
        var hash: UInt32 = 2_166_136_261
        for byte in id.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int32(bitPattern: hash)
    }

    /// The owner of a chain; nil when the chain is not stored.
    func owner(ofChain chain: String) throws(PostgresError) -> String? {
        let rows = try query("SELECT app_user_id FROM chains WHERE original_transaction_id = $1", [.bytes(chain)])
        return rows.count == 0 ? nil : try rows.bytes(0, 0)
    }

    /// The customer who minted an account token (or the one an anonymous minter is aliased to); nil when it was never minted.
    func owner(ofToken token: String) throws(PostgresError) -> String? {
        let rows = try query("SELECT app_user_id FROM account_tokens WHERE app_account_token = $1 FOR UPDATE",
                             [.bytes(token)])
        guard rows.count > 0, let minter = try rows.bytes(0, 0) else { return nil }
        return try aliasTarget(minter) ?? minter  // an anonymous minter aliased since: its identified customer
    }

    /// Files a new chain under `owner`; a chain another transaction filed first makes this one run again.
    func insertChain(_ chain: String, owner: String) throws(PostgresError) {
        try lockCustomer(owner)
        let rows = try query("""
            INSERT INTO chains (original_transaction_id, app_user_id) VALUES ($1, $2)
            ON CONFLICT (original_transaction_id) DO NOTHING RETURNING 1
            """, [.bytes(chain), .bytes(owner)])
        if rows.count == 0 { throw .retry("chain filed by a concurrent write") }
    }

    /// A store setting; nil when never set.
    func setting(_ name: String) throws(PostgresError) -> String? {
        let rows = try query("SELECT value FROM store_settings WHERE name = $1", [.text(name)])
        return rows.count == 0 ? nil : rows.text(0, 0)
    }

    /// Stores a store setting.
    func setSetting(_ name: String, _ value: String) throws(PostgresError) {
        try query("""
            INSERT INTO store_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value
            """, [.text(name), .text(value)])
    }

    /// Rebuilds every customer's nets from the stored history with `credits` (inside the caller's transaction,
    /// under the migration lock) when they were built with other credits; records the fingerprint.
    func rebuildBalancesIfNeeded(_ credits: CurrencyCredits) throws(PostgresError) {
        guard try setting("credits_fingerprint") != credits.fingerprint else { return }
        try query("DELETE FROM balances")
        let customers = try query("SELECT app_user_id FROM customers ORDER BY app_user_id")
        for row in 0..<customers.count {
            let customer = try customers.requiredBytes(row, 0)
            let record = try customerRecord(customer)
            for (currency, net) in credits.nets(of: record.purchaseHistory) where net != 0 {
                try addToNet(of: customer, currency: currency, net)
            }
        }
        try setSetting("credits_fingerprint", credits.fingerprint)
    }
}
