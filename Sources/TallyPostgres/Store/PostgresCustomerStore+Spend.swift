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
            // The spend already recorded with this id (if any) and the net of `currency`, in one statement.
            let rows = try connection.query("""
                SELECT (SELECT net::text FROM balances WHERE app_user_id = $1 AND currency = $3),
                       s.currency, s.amount::text, s.date_ms
                FROM (VALUES (1)) AS one LEFT JOIN spends s ON s.app_user_id = $1 AND s.spend_id = $2
                """, [.bytes(appUserId), .bytes(id), .bytes(currency)])
            var existing: Spend?
            if rows.count > 0, !rows.isNull(0, 1) {
                guard let amount = try rows.decimal(0, 2) else { throw .corrupt("spend '\(id.prefix(64))' has no amount") }
                existing = Spend(id: id, currency: try rows.requiredBytes(0, 1), amount: amount,
                                 date: Date(millisecondsSince1970: try rows.integer(0, 3) ?? 0))
            }
            let net = rows.count > 0 ? try rows.decimal(0, 0) ?? 0 : 0
            let admitted: Spend?
            do {
                admitted = try admit(existing, net)
            } catch {
                return .refused(error)
            }
            guard let spend = admitted else { return .duplicate(try connection.customerStateRecord(appUserId)) }
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
            return .recorded(try connection.customerStateRecord(appUserId))
        }
        switch admission {
        case .recorded(let record): return .recorded(record)
        case .duplicate(let record): return .duplicate(record)
        case .refused(let error):
            throw CustomerStoreError(.refused, "the spend was refused: \(error)", underlying: error)
        }
    }
}
