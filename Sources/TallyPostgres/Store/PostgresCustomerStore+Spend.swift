import Foundation
import TallyCore
import TallyStorage

extension PostgresCustomerStore {
    private enum Admission {
        case recorded(CustomerRecord)
        case duplicate(CustomerRecord)
        case refused(any Error)
    }

    /// What a spend that answers with the state decided, carried out of its transaction.
    private enum AnsweredAdmission {
        case answered(SpendAnswer)
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
            let appUserId = try connection.lockResolvingAlias(appUserId)  // aliased since the caller looked
            try connection.lockCustomer(appUserId)
            // After the lock, in one statement: the state record (its nets hold the net of `currency`) and the spend
            // already recorded with this id, if any. Nothing else changes the nets or version while the row is locked.
            var record = try connection.customerStateRecord(appUserId, withSpend: id)
            let admitted: Spend?
            switch Self.judge(&record, currency: currency, admit: admit) {
            case .admitted(let spend): admitted = spend
            case .duplicate: admitted = nil
            case .refused(let error): return .refused(error)
            }
            guard let spend = admitted else { return .duplicate(record) }
            try connection.insertSpend(spend, for: appUserId, keeping: nil)
            return .recorded(Self.spent(spend, from: record))
        }
        switch admission {
        case .recorded(let record): return .recorded(record)
        case .duplicate(let record): return .duplicate(record)
        case .refused(let error):
            throw CustomerStoreError(.refused, "the spend was refused: \(error)", underlying: error)
        }
    }

    /// ``spend(id:currency:for:admit:)`` answering with the encoded state. The lock returns the row's version and
    /// the state kept at it; when that state is servable at `date`, the spend reads only the nets and the spend id
    /// (no transactions, no renewal info) and answers with the kept state's nets replaced; else it reads the state
    /// record and encodes it. Either way the state after the spend is written into the row by the spend's own
    /// statement, at the new version, so the next read on any server is one primary-key lookup.
    public func spend(id: String, currency: String, for appUserId: String, at date: Date, encoding: StateEncoding,
                      admit: (_ existing: Spend?, _ net: Decimal) throws -> Spend?) throws(CustomerStoreError)
        -> SpendAnswer
    {
        let admission = try write("the spend cannot be stored") { (connection) throws(PostgresError) -> AnsweredAdmission in
            let appUserId = try connection.lockResolvingAlias(appUserId)  // aliased since the caller looked
            let (version, facts, kept) = try connection.lockCustomerReadingKeptState(appUserId)
            let servable = kept.flatMap { $0.isServable(fingerprint: encoding.fingerprint, at: date) ? $0 : nil }
            var record = servable == nil
                ? try connection.customerStateRecord(appUserId, withSpend: id, at: date)
                : try connection.netsRecord(appUserId, withSpend: id)
            record.version = version
            record.factsVersion = facts
            let admitted: Spend?
            switch Self.judge(&record, currency: currency, admit: admit) {
            case .admitted(let spend): admitted = spend
            case .duplicate: admitted = nil
            case .refused(let error): return .refused(error)
            }
            guard let spend = admitted else {
                return .answered(SpendAnswer(isDuplicate: true, state: servable ?? encoding.encode(record, date),
                                             factsVersion: facts))
            }
            let after = Self.spent(spend, from: record)
            var state: StoredCustomerState
            if let servable, let body = encoding.restate(servable.body, after.nets) {
                state = servable
                state.body = body
                state.version = after.version
            } else {
                // Nothing servable was kept (or it could not be restated): the record, read whole if only the nets were.
                var whole = after
                if servable != nil {
                    whole = try connection.customerStateRecord(appUserId, at: date)
                    whole.nets = after.nets
                    whole.version = after.version
                    whole.factsVersion = facts
                }
                state = encoding.encode(whole, date)
            }
            try connection.insertSpend(spend, for: appUserId, keeping: state)
            return .answered(SpendAnswer(isDuplicate: false, state: state, factsVersion: facts))
        }
        switch admission {
        case .answered(let answer): return answer
        case .refused(let error):
            throw CustomerStoreError(.refused, "the spend was refused: \(error)", underlying: error)
        }
    }

    /// What `admit` made of a spend.
    private enum Judgement {
        case admitted(Spend)
        case duplicate
        case refused(any Error)
    }

    /// `admit` given the spend read with `record` (taken out of its ``TallyServer/CustomerRecord/spends``) and the
    /// net of `currency` in its nets (compared as bytes).
    private static func judge(_ record: inout CustomerRecord, currency: String,
                              admit: (_ existing: Spend?, _ net: Decimal) throws -> Spend?) -> Judgement {
        let existing = record.spends.first
        record.spends = []
        let net = record.nets.first { $0.key.hasSameBytes(as: currency) }?.value ?? 0
        do {
            return try admit(existing, net).map(Judgement.admitted) ?? .duplicate
        } catch {
            return .refused(error)
        }
    }

    /// The record as `spend` leaves it, without reading it again: its net less the amount, the version one up.
    private static func spent(_ spend: Spend, from record: CustomerRecord) -> CustomerRecord {
        var after = record
        let key = after.nets.keys.first { $0.hasSameBytes(as: spend.currency) } ?? spend.currency
        after.nets[key] = (after.nets[key] ?? 0) - spend.amount
        after.version += 1
        return after
    }
}

extension PostgresConnection {
    /// The spend, the net and the version in one statement (the customer's row is locked by the caller), and with
    /// `keeping` the state after it, kept at the new version.
    func insertSpend(_ spend: Spend, for appUserId: String, keeping state: StoredCustomerState?) throws(PostgresError) {
        var parameters: [PostgresValue] = [.bytes(appUserId), .bytes(spend.id), .bytes(spend.currency),
                                           .decimal(spend.amount), .integer(spend.date.millisecondsSince1970)]
        var update = "UPDATE customers SET version = version + 1 WHERE app_user_id = $1"
        if let state {
            update = """
                UPDATE customers SET version = version + 1, state_version = version + 1, state_fingerprint = $6,
                    state_from_ms = $7::bigint, state_until_ms = $8::bigint, state_body = $9
                WHERE app_user_id = $1
                """
            parameters += [.text(state.fingerprint), .integer(state.validFrom.millisecondsSince1970),
                           .integer(state.validUntil.millisecondsSince1970), .text(String(decoding: state.body, as: UTF8.self))]
        }
        try query("""
            WITH spend AS (
                INSERT INTO spends (app_user_id, spend_id, currency, amount, date_ms)
                VALUES ($1, $2, $3, $4::numeric, $5::bigint)
            ), balance AS (
                INSERT INTO balances (app_user_id, currency, net) VALUES ($1, $3, -($4::numeric))
                ON CONFLICT (app_user_id, currency) DO UPDATE SET net = balances.net + EXCLUDED.net
            )
            """ + update, parameters)
    }
}
