import Foundation
import TallyCore
import TallyServer

/// Stores one post's transactions inside its PostgreSQL transaction, by the same rules as the SQLite store's
/// recorder (ownership policy, kept chains, newer facts win by TallyCore's `Transaction.supersedes`, nets moved
/// by `CurrencyCredits`). The caller has locked the chains of the posted transactions (``PostgresConnection/lockChains(_:)``).
struct PostgresTransactionRecorder {
    let connection: PostgresConnection
    let appUserId: String
    let policy: OwnershipPolicy
    let credits: CurrencyCredits
    /// When the post happened, at whole milliseconds.
    let date: Date
    var outcome = RecordOutcome()
    /// Customers whose versions grow at ``finish()`` besides the poster (each once, compared by bytes).
    var losers: [String] = []

    init(connection: PostgresConnection, appUserId: String, policy: OwnershipPolicy, credits: CurrencyCredits, date: Date) {
        self.connection = connection
        self.appUserId = appUserId
        self.policy = policy
        self.credits = credits
        self.date = Date(millisecondsSince1970: date.millisecondsSince1970)
    }

    /// A transaction row as stored.
    struct StoredCopy {
        var owner: String
        var chain: String
        var payload: String
    }

    /// Applies the ownership policy to `item`, then inserts, updates or leaves its stored copy.
    mutating func store(_ item: PreparedCopy) throws(PostgresError) {
        let transaction = item.normalized
        let chain = transaction.originalTransactionId
        let token = transaction.appAccountToken
        let chainOwner = try connection.owner(ofChain: chain)
        let tokenOwner = try token.map { (token) throws(PostgresError) in try connection.owner(ofToken: token) } ?? nil
        let existing = try storedCopy(transaction.transactionId)
        if let existing, !existing.chain.hasSameBytes(as: chain) { try connection.lockChains([existing.chain]) }
        let others = [chainOwner, tokenOwner, existing?.owner].compactMap { $0 }.filter { !isThisCustomer($0) }
        if !others.isEmpty {
            guard policy == .transfer, transaction.type.isRestorable else {
                outcome.kept.append(transaction.transactionId)
                try keep(item, owner: existing?.owner ?? chainOwner ?? tokenOwner, existing: existing, chainOwner: chainOwner)
                return
            }
            try connection.lockCustomer(appUserId)
            try moveChain(chain)
            if let existing { try moveChain(existing.chain) }
            if let token, let tokenOwner, !isThisCustomer(tokenOwner) { try moveToken(token, from: tokenOwner) }
        }
        try connection.lockCustomer(appUserId)
        if chainOwner == nil { try connection.insertChain(chain, owner: appUserId) }
        if let token, tokenOwner == nil { try connection.insertToken(token, owner: appUserId) }
        switch try write(item, replacing: existing, owner: appUserId) {
        case .inserted: outcome.inserted.append(transaction.transactionId)
        case .updated: outcome.updated.append(transaction.transactionId)
        case .unchanged: outcome.unchanged.append(transaction.transactionId)
        }
    }

    /// Under ``TallyServer/OwnershipPolicy/keep``: Apple's newer facts about a kept chain still reach its owner.
    private mutating func keep(_ item: PreparedCopy, owner: String?, existing: StoredCopy?,
                               chainOwner: String?) throws(PostgresError) {
        guard let owner else { return }
        if chainOwner == nil { try connection.insertChain(item.normalized.originalTransactionId, owner: owner) }
        guard try write(item, replacing: existing, owner: owner) != .unchanged,
              !outcome.ownersUpdated.contains(where: { $0.hasSameBytes(as: owner) }) else { return }
        outcome.ownersUpdated.append(owner)
        losers.append(owner)
    }

    /// Bumps the versions of every customer this call changed and returns the outcome.
    mutating func finish() throws(PostgresError) -> RecordOutcome {
        if outcome.changedAnything { try connection.bumpVersion(of: appUserId) }
        for loser in losers { try connection.bumpVersion(of: loser) }
        return outcome
    }

    func isThisCustomer(_ id: String) -> Bool {
        id.hasSameBytes(as: appUserId)
    }

    private enum Write { case inserted, updated, unchanged }

    /// TallyCore decides (``TallyCore/Transaction/supersedes(_:)`` against the locked stored copy); the upsert's
    /// `WHERE` states the same rule in SQL on `signed_date_ms` and `revoked`, so the database never replaces a
    /// newer copy with an older one. A disagreement means a concurrent first insert (run again) or a rule out of
    /// step (an error).
    private func write(_ item: PreparedCopy, replacing existing: StoredCopy?, owner: String) throws(PostgresError) -> Write {
        let transaction = item.normalized
        let id = transaction.transactionId
        var stored: Transaction?
        if let existing {
            let copy = try PostgresCoding.transaction(json: existing.payload, id: id)
            guard copy != transaction, transaction.supersedes(copy) else { return .unchanged }
            stored = copy
        }
        let rows = try connection.query("""
            INSERT INTO transactions (transaction_id, original_transaction_id, app_user_id, app_account_token, source,
                payload, signed_transaction, signed_date_ms, revoked, product_type, consumable, updated_at,
                product_id, purchase_ms, expires_ms, revocation_ms, price, currency, offer_type, is_upgraded)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8::bigint, $9::boolean, $10, $11::boolean, $12::bigint,
                $13, $14::bigint, $15::bigint, $16::bigint, $17::bigint, $18, $19::integer, $20::boolean)
            ON CONFLICT (transaction_id) DO UPDATE SET original_transaction_id = EXCLUDED.original_transaction_id,
                app_user_id = EXCLUDED.app_user_id, app_account_token = EXCLUDED.app_account_token,
                source = EXCLUDED.source, payload = EXCLUDED.payload, signed_transaction = EXCLUDED.signed_transaction,
                signed_date_ms = EXCLUDED.signed_date_ms, revoked = EXCLUDED.revoked,
                product_type = EXCLUDED.product_type, consumable = EXCLUDED.consumable, updated_at = EXCLUDED.updated_at,
                product_id = EXCLUDED.product_id, purchase_ms = EXCLUDED.purchase_ms, expires_ms = EXCLUDED.expires_ms,
                revocation_ms = EXCLUDED.revocation_ms, price = EXCLUDED.price, currency = EXCLUDED.currency,
                offer_type = EXCLUDED.offer_type, is_upgraded = EXCLUDED.is_upgraded
            WHERE coalesce(EXCLUDED.signed_date_ms, -9223372036854775808) > coalesce(transactions.signed_date_ms, -9223372036854775808)
               OR (coalesce(EXCLUDED.signed_date_ms, -9223372036854775808) = coalesce(transactions.signed_date_ms, -9223372036854775808)
                   AND (EXCLUDED.revoked OR NOT transactions.revoked))
            RETURNING (xmax = 0)
            """, [
                .bytes(id), .bytes(transaction.originalTransactionId), .bytes(owner), .optionalBytes(transaction.appAccountToken),
                .text(item.stored.source.rawValue), .text(item.json), .optionalBytes(item.stored.signedTransaction),
                transaction.signedDate.map { .integer($0.millisecondsSince1970) } ?? .null, .bool(transaction.isRevoked),
                .text(transaction.type.rawValue), .bool(transaction.type == .consumable), .integer(date.millisecondsSince1970),
            ] + PostgresCoding.dashboardValues(of: transaction))
        let inserted = rows.count == 1 ? rows.bool(0, 0) : nil
        guard let existing, let stored else {
            guard inserted == true else { throw .retry("transaction inserted by a concurrent write") }
            try connection.applyCredits(credits, replacing: nil, of: nil, with: transaction, owner: owner)
            return .inserted
        }
        guard inserted == false else { throw .retry("stored copy vanished during the write") }
        try connection.applyCredits(credits, replacing: stored, of: existing.owner, with: transaction, owner: owner)
        return .updated
    }

    /// The stored row of a transaction id, locked; nil when none.
    func storedCopy(_ transactionId: String) throws(PostgresError) -> StoredCopy? {
        let rows = try connection.query("""
            SELECT app_user_id, original_transaction_id, payload FROM transactions WHERE transaction_id = $1 FOR UPDATE
            """, [.bytes(transactionId)])
        guard rows.count > 0 else { return nil }
        return StoredCopy(owner: try rows.requiredBytes(0, 0), chain: try rows.requiredBytes(0, 1),
                          payload: try rows.requiredText(0, 2))
    }

    /// Moves a chain and its stored transactions to this customer, recording the transfer; nothing when the
    /// chain is unknown or already this customer's.
    mutating func moveChain(_ chain: String) throws(PostgresError) {
        try connection.lockChains([chain])
        guard let from = try connection.owner(ofChain: chain), !isThisCustomer(from) else { return }
        try connection.query("UPDATE chains SET app_user_id = $1 WHERE original_transaction_id = $2",
                             [.bytes(appUserId), .bytes(chain)])
        try connection.query("UPDATE transactions SET app_user_id = $1 WHERE original_transaction_id = $2",
                             [.bytes(appUserId), .bytes(chain)])
        try connection.query("""
            INSERT INTO transfers (original_transaction_id, from_app_user_id, to_app_user_id, date_ms)
            VALUES ($1, $2, $3, $4::bigint)
            """, [.bytes(chain), .bytes(from), .bytes(appUserId), .integer(date.millisecondsSince1970)])
        outcome.transfers.append(OwnershipTransfer(originalTransactionId: chain, fromAppUserId: from,
                                                   toAppUserId: appUserId, date: date))
        if !losers.contains(where: { $0.hasSameBytes(as: from) }) { losers.append(from) }
    }

    /// Moves an account token to this customer, with every restorable chain of its owner that carries it.
    mutating func moveToken(_ token: String, from owner: String) throws(PostgresError) {
        let rows = try connection.query("""
            SELECT original_transaction_id, product_type FROM transactions
            WHERE app_account_token = $1 AND app_user_id = $2 ORDER BY original_transaction_id
            """, [.bytes(token), .bytes(owner)])
        var chains: [String] = []
        for row in 0..<rows.count {
            guard let type = rows.text(row, 1), ProductType(rawValue: type).isRestorable else { continue }
            let chain = try rows.requiredBytes(row, 0)
            if chains.last.map({ !$0.hasSameBytes(as: chain) }) ?? true { chains.append(chain) }
        }
        for chain in chains { try moveChain(chain) }
        try connection.query("UPDATE account_tokens SET app_user_id = $1 WHERE app_account_token = $2",
                             [.bytes(appUserId), .bytes(token)])
    }
}
