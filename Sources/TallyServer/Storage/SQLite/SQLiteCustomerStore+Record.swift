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
        try record(transactions, for: appUserId, policy: policy, at: date, readingState: false).outcome
    }

    /// ``record(_:for:policy:at:)`` with ``customerState(_:)``'s record of `appUserId` read inside the same
    /// write transaction, after the write: exactly the state this write left, with no second read.
    public func recordReadingState(_ transactions: [StoredTransaction], for appUserId: String,
                                   policy: OwnershipPolicy, at date: Date) throws(CustomerStoreError)
        -> (outcome: RecordOutcome, state: CustomerRecord)
    {
        let (outcome, state) = try record(transactions, for: appUserId, policy: policy, at: date, readingState: true)
        return (outcome, state ?? CustomerRecord(appUserId: appUserId))
    }

    private func record(_ transactions: [StoredTransaction], for appUserId: String, policy: OwnershipPolicy,
                        at date: Date, readingState: Bool) throws(CustomerStoreError)
        -> (outcome: RecordOutcome, state: CustomerRecord?)
    {
        var prepared: [PreparedTransaction] = []
        prepared.reserveCapacity(transactions.count)
        for transaction in transactions {
            prepared.append(try PreparedTransaction(transaction))
        }
        let items = prepared
        return try write { (connection) throws(SQLiteError) -> (outcome: RecordOutcome, state: CustomerRecord?) in
            let outcome = try SQLiteTransactionRows(connection: connection)
                .record(items, for: appUserId, policy: policy, credits: credits, date: date)
            return (outcome, readingState ? try connection.customerStateRecord(appUserId) : nil)
        }
    }
}
