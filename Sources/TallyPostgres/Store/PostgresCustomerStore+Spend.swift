import Foundation
import TallyCore
import TallyServer

extension PostgresCustomerStore {
    private enum Admission {
        case recorded(CustomerRecord)
        case duplicate(CustomerRecord)
        case refused(any Error)
    }

    /// Stores the spend `admit` returns, judged while the customer's row is locked (`SELECT … FOR UPDATE`): spends
    /// of one customer, on any server, are judged one after another on the net committed before them, so they
    /// never overdraw. `admit` may run again when the transaction is run again after a conflict.
    public func spend(id: String, currency: String, for appUserId: String,
                      admit: (_ existing: Spend?, _ net: Decimal) throws -> Spend?) throws(CustomerStoreError)
        -> SpendOutcome
    {
        let admission = try write("the spend cannot be stored") { (connection) throws(PostgresError) -> Admission in
            try connection.lockCustomer(appUserId)
            // After the lock, in one statement: the state record (its nets hold the net of `currency`) and the spend
            // already recorded with this id, if any. Nothing else changes the nets or version while the row is locked.
            var record = try connection.customerStateRecord(appUserId, withSpend: id)
            let existing = record.spends.first
            record.spends = []
            let net = record.nets.first { $0.key.hasSameBytes(as: currency) }?.value ?? 0
            let admitted: Spend?
            do {
                admitted = try admit(existing, net)
            } catch {
                return .refused(error)
            }
            guard let spend = admitted else { return .duplicate(record) }
            // The spend, the net and the version in one statement (the customer's row is locked above).
            try connection.query("""
                WITH spend AS (
                    INSERT INTO spends (app_user_id, spend_id, currency, amount, date_ms)
                    VALUES ($1, $2, $3, $4::numeric, $5::bigint)
                ), balance AS (
                    INSERT INTO balances (app_user_id, currency, net) VALUES ($1, $3, -($4::numeric))
                    ON CONFLICT (app_user_id, currency) DO UPDATE SET net = balances.net + EXCLUDED.net
                )
                UPDATE customers SET version = version + 1 WHERE app_user_id = $1
                """, [.bytes(appUserId), .bytes(spend.id), .bytes(spend.currency), .decimal(spend.amount),
                      .integer(spend.date.millisecondsSince1970)])
            // The record as this spend leaves it, without reading it again.
            let key = record.nets.keys.first { $0.hasSameBytes(as: spend.currency) } ?? spend.currency
            record.nets[key] = (record.nets[key] ?? 0) - spend.amount
            record.version += 1
            return .recorded(record)
        }
        switch admission {
        case .recorded(let record): return .recorded(record)
        case .duplicate(let record): return .duplicate(record)
        case .refused(let error):
            throw CustomerStoreError(.refused, "the spend was refused: \(error)", underlying: error)
        }
    }
}
