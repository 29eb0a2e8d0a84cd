import Foundation
import TallyCore

/// Stores one ``CustomerStore/record(_:for:policy:at:)`` call's transactions inside its write transaction.
struct TransactionRecorder {
    let connection: SQLiteConnection
    let appUserId: String
    let policy: OwnershipPolicy
    /// What each transaction credits: every stored copy that changes moves its owner's nets in the same write.
    let credits: CurrencyCredits
    /// When the post happened, at whole milliseconds (as transfers read back).
    let date: Date
    var outcome = RecordOutcome()
    /// Customers a chain moved away from (each once, compared by bytes); their versions grow at ``finish()``.
    var losers: [String] = []

    init(connection: SQLiteConnection, appUserId: String, policy: OwnershipPolicy, credits: CurrencyCredits,
         date: Date) {
        self.connection = connection
        self.appUserId = appUserId
        self.policy = policy
        self.credits = credits
        self.date = Date(millisecondsSince1970: date.millisecondsSince1970)
    }

    /// Applies the ownership policy to `item`, then inserts, updates or leaves its stored copy.
    ///
    /// Only restorable purchases (``TallyCore/ProductType/isRestorable``) move under ``OwnershipPolicy/transfer``:
    /// a consumable stays with the customer it was first credited to under every policy, so one purchase
    /// never credits two accounts.
    mutating func store(_ item: PreparedTransaction) throws(SQLiteError) {
        let transaction = item.normalized
        let chain = transaction.originalTransactionId
        let token = transaction.appAccountToken
        let chainOwner = try owner(ofChain: chain)
        let tokenOwner = try token.map { (token) throws(SQLiteError) in try owner(ofToken: token) } ?? nil
        let existing = try storedCopy(transaction.transactionId)
        let others = [chainOwner, tokenOwner, existing?.owner].compactMap { $0 }.filter { !isThisCustomer($0) }
        if !others.isEmpty {
            guard policy == .transfer, transaction.type.isRestorable else {
                outcome.kept.append(transaction.transactionId)
                try keep(item, owner: existing?.owner ?? chainOwner ?? tokenOwner, existing: existing,
                         chainOwner: chainOwner)
                return
            }
            try connection.ensureCustomer(appUserId)
            try moveChain(chain)
            if let existing { try moveChain(existing.chain) }  // a stored copy filed under another chain
            if let token, let tokenOwner, !isThisCustomer(tokenOwner) { try moveToken(token, from: tokenOwner) }
        }
        try connection.ensureCustomer(appUserId)
        if chainOwner == nil {
            try connection.execute("INSERT INTO chains (original_transaction_id, app_user_id) VALUES (?, ?)",
                                   [.text(chain), .text(appUserId)])
        }
        if let token, tokenOwner == nil {
            try connection.execute("INSERT INTO account_tokens (app_account_token, app_user_id) VALUES (?, ?)",
                                   [.text(token), .text(appUserId)])
        }
        switch try write(item, replacing: existing, owner: appUserId) {
        case .inserted: outcome.inserted.append(transaction.transactionId)
        case .updated: outcome.updated.append(transaction.transactionId)
        case .unchanged: outcome.unchanged.append(transaction.transactionId)
        }
    }

    /// Under ``OwnershipPolicy/keep``: Apple's newer facts about a kept chain (a refund, a renewal) still
    /// reach its owner, who keeps it; the customer who posted it gets nothing.
    private mutating func keep(_ item: PreparedTransaction, owner: String?, existing: StoredCopy?,
                               chainOwner: String?) throws(SQLiteError) {
        guard let owner else { return }
        if chainOwner == nil {
            try connection.execute("INSERT INTO chains (original_transaction_id, app_user_id) VALUES (?, ?)",
                                   [.text(item.normalized.originalTransactionId), .text(owner)])
        }
        guard try write(item, replacing: existing, owner: owner) != .unchanged,
              !outcome.ownersUpdated.contains(where: { $0.hasSameBytes(as: owner) }) else { return }
        outcome.ownersUpdated.append(owner)
        losers.append(owner)
    }

    /// Bumps the versions of every customer this call changed and returns the outcome.
    mutating func finish() throws(SQLiteError) -> RecordOutcome {
        if outcome.changedAnything { try connection.bumpVersion(of: appUserId) }
        for loser in losers { try connection.bumpVersion(of: loser) }
        return outcome
    }

    /// Whether `id` is this customer's id, byte for byte as SQLite compares text (Swift's `==` would also
    /// match a different Unicode normalization, which the database stores as another customer).
    func isThisCustomer(_ id: String) -> Bool {
        id.hasSameBytes(as: appUserId)
    }

    /// What ``write(_:replacing:owner:)`` did.
    private enum Write { case inserted, updated, unchanged }

    /// Inserts the transaction for `owner`, replaces a stored copy it supersedes (``TallyCore/Transaction/supersedes(_:)``),
    /// or leaves the stored copy when it is equal or newer.
    private func write(_ item: PreparedTransaction, replacing existing: StoredCopy?,
                       owner: String) throws(SQLiteError) -> Write {
        let transaction = item.normalized
        let id = transaction.transactionId
        let values: [SQLiteValue] = [
            .text(transaction.originalTransactionId), .text(owner), .optionalText(transaction.appAccountToken),
            .text(item.stored.source.rawValue), .text(item.json), .optionalText(item.stored.signedTransaction),
            .integer(date.millisecondsSince1970), .integer(transaction.type == .consumable ? 1 : 0), .text(id),
        ]
        guard let existing else {
            try connection.execute("""
                INSERT INTO transactions (original_transaction_id, app_user_id, app_account_token, source, payload,
                                          signed_transaction, updated_at, consumable, transaction_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, values)
            try connection.applyCredits(credits, replacing: nil, of: nil, with: transaction, owner: owner)
            return .inserted
        }
        // Newer facts win: a copy signed earlier than the stored one (a purchase replayed after its refund)
        // changes nothing.
        let stored = try StoredValueCoding.transaction(json: existing.payload, id: id)
        guard stored != transaction, transaction.supersedes(stored) else { return .unchanged }
        try connection.execute("""
            UPDATE transactions SET original_transaction_id = ?, app_user_id = ?, app_account_token = ?, source = ?,
                payload = ?, signed_transaction = ?, updated_at = ?, consumable = ?
            WHERE transaction_id = ?
            """, values)
        try connection.applyCredits(credits, replacing: stored, of: existing.owner, with: transaction, owner: owner)
        return .updated
    }
}
