import TallySQLite

extension SandboxMigration {
    /// Format 2 → 3: transactions keep their order ID (`transactions.order_id`, indexed for Look Up Order ID);
    /// transactions saved before get the one ``SandboxOrderId`` makes for their id.
    static let orderIds = SandboxMigration(name: "order ids") { database in
        try database.write("ALTER TABLE transactions ADD COLUMN order_id TEXT", [])
        try database.write("CREATE INDEX transactions_by_order ON transactions (order_id)", [])
        var ids: [String] = []
        try database.run("SELECT transaction_id FROM transactions WHERE order_id IS NULL", []) {
            (row) throws(SandboxError) in
            do throws(SQLiteError) { ids.append(try row.requiredText(0)) } catch { throw error.sandboxError(path: database.path) }
        }
        for id in ids {
            try database.write("UPDATE transactions SET order_id = ? WHERE transaction_id = ?",
                               [.text(SandboxOrderId.of(transactionId: id)), .text(id)])
        }
    }
}
