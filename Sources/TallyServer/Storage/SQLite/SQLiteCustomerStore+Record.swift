import Foundation
import TallySQLite

extension SQLiteCustomerStore {
    /// Stores verified transactions for `appUserId` in one durable transaction, applying `policy` to chains
    /// and account tokens that belong to another customer (see ``CustomerStore/record(_:for:policy:at:)``).
    ///
    /// A transaction id already stored whose transaction value (after the JSON round trip) is equal, or that
    /// the stored copy supersedes (newer facts win), is `unchanged`, whatever its source or signature; a newer
    /// copy replaces it (`updated`). The owners' materialised nets move in the same transaction. The
    /// customer's version grows once per call that changed anything; each customer a chain moved away from
    /// grows too.
    public func record(_ transactions: [StoredTransaction], for appUserId: String, policy: OwnershipPolicy,
                       at date: Date) throws(CustomerStoreError) -> RecordOutcome {
        try record(transactions, for: appUserId, policy: policy, at: date, reading: .none).outcome
    }

    /// ``record(_:for:policy:at:)`` with ``customerState(_:)``'s record of `appUserId` read inside the same
    /// write transaction, after the write: exactly the state this write left, with no second read; only the versions
    /// and the nets when the customer's facts version is still `knownFactsVersion`.
    public func recordReadingState(_ transactions: [StoredTransaction], for appUserId: String,
                                   policy: OwnershipPolicy, at date: Date, knownFactsVersion: Int64?) throws(CustomerStoreError)
        -> (outcome: RecordOutcome, state: CustomerRecord, onlyNets: Bool)
    {
        let (outcome, state) = try record(transactions, for: appUserId, policy: policy, at: date,
                                          reading: .state(knownFactsVersion: knownFactsVersion))
        return (outcome, state?.record ?? CustomerRecord(appUserId: appUserId), state?.onlyNets ?? false)
    }

    private func record(_ transactions: [StoredTransaction], for appUserId: String, policy: OwnershipPolicy,
                        at date: Date, reading: StateReading) throws(CustomerStoreError)
        -> (outcome: RecordOutcome, state: (record: CustomerRecord, onlyNets: Bool)?)
    {
        var prepared: [PreparedTransaction] = []
        prepared.reserveCapacity(transactions.count)
        for transaction in transactions {
            prepared.append(try PreparedTransaction(transaction))
        }
        let items = prepared
        return try write { (connection) throws(SQLiteError) -> (outcome: RecordOutcome, state: (record: CustomerRecord, onlyNets: Bool)?) in
            let outcome = try SQLiteTransactionRows(connection: connection)
                .record(items, for: appUserId, policy: policy, credits: credits, date: date)
            guard case .state(let known) = reading else { return (outcome, nil) }
            if let known {
                let (version, facts) = try connection.versions(of: appUserId)
                if facts == known {
                    return (outcome, (CustomerRecord(appUserId: appUserId, version: version, factsVersion: facts,
                                                     nets: try connection.nets(of: appUserId)), true))
                }
            }
            return (outcome, (try connection.customerStateRecord(appUserId, at: date), false))
        }
    }
}
