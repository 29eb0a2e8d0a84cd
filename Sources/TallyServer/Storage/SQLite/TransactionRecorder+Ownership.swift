import Foundation
import TallyCore

extension TransactionRecorder {
    /// A transaction row as stored: who owns it, its chain and its JSON.
    struct StoredCopy {
        var owner: String
        var chain: String
        var payload: String
    }

    /// The customer who owns the chain, nil for a chain never stored.
    func owner(ofChain chain: String) throws(SQLiteError) -> String? {
        try connection.text("SELECT app_user_id FROM chains WHERE original_transaction_id = ?", [.text(chain)])
    }

    /// The customer who owns the account token, nil for a token never stored.
    func owner(ofToken token: String) throws(SQLiteError) -> String? {
        try connection.text("SELECT app_user_id FROM account_tokens WHERE app_account_token = ?", [.text(token)])
    }

    /// The stored row of a transaction id, nil when none.
    func storedCopy(_ transactionId: String) throws(SQLiteError) -> StoredCopy? {
        try connection.withStatement("""
            SELECT app_user_id, original_transaction_id, payload FROM transactions WHERE transaction_id = ?
            """, [.text(transactionId)]) { (row) throws(SQLiteError) -> StoredCopy? in
            guard try row.step() else { return nil }
            return StoredCopy(owner: try row.requiredText(0), chain: try row.requiredText(1),
                              payload: try row.requiredText(2))
        }
    }

    /// Moves a chain and every stored transaction of it to this customer, recording the transfer;
    /// nothing when the chain is unknown or already this customer's. Only restorable chains move (see
    /// ``store(_:)`` and ``moveToken(_:from:)``), and they credit no currency, so no nets change.
    mutating func moveChain(_ chain: String) throws(SQLiteError) {
        guard let from = try owner(ofChain: chain), !isThisCustomer(from) else { return }
        try connection.execute("UPDATE chains SET app_user_id = ? WHERE original_transaction_id = ?",
                               [.text(appUserId), .text(chain)])
        try connection.execute("UPDATE transactions SET app_user_id = ? WHERE original_transaction_id = ?",
                               [.text(appUserId), .text(chain)])
        try connection.execute("""
            INSERT INTO transfers (original_transaction_id, from_app_user_id, to_app_user_id, date_ms)
            VALUES (?, ?, ?, ?)
            """, [.text(chain), .text(from), .text(appUserId), .integer(date.millisecondsSince1970)])
        outcome.transfers.append(OwnershipTransfer(originalTransactionId: chain, fromAppUserId: from,
                                                   toAppUserId: appUserId, date: date))
        if !losers.contains(where: { $0.hasSameBytes(as: from) }) { losers.append(from) }
    }

    /// Moves an account token to this customer, with every restorable chain of its owner that carries the
    /// token (consumables stay where they were credited).
    mutating func moveToken(_ token: String, from owner: String) throws(SQLiteError) {
        var chains: [String] = []
        try connection.query("""
            SELECT original_transaction_id, json_extract(payload, '$.type') FROM transactions
            WHERE app_account_token = ? AND app_user_id = ? ORDER BY original_transaction_id
            """, [.text(token), .text(owner)]) { (row) throws(SQLiteError) in
            guard let type = row.text(1), ProductType(rawValue: type).isRestorable else { return }
            let chain = try row.requiredText(0)
            if chains.last.map({ !$0.hasSameBytes(as: chain) }) ?? true { chains.append(chain) }
        }
        for chain in chains { try moveChain(chain) }
        try connection.execute("UPDATE account_tokens SET app_user_id = ? WHERE app_account_token = ?",
                               [.text(appUserId), .text(token)])
    }
}
