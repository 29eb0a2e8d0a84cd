import Foundation
import TallySQLite
import TallyStorage

extension SQLiteCustomerStore: StateReadingStore {
    /// Stores verified transactions for `appUserId` in one durable transaction, applying `policy` to chains
    /// and account tokens that belong to another customer (see ``CustomerStore/record(_:for:policy:at:)``), and
    /// reads what `reading` asks in the same transaction (``StateReadingStore``).
    ///
    /// A transaction id already stored whose transaction value (after the JSON round trip) is equal, or that
    /// the stored copy supersedes (newer facts win), is `unchanged`, whatever its source or signature; a newer
    /// copy replaces it (`updated`). The owners' materialised nets move in the same transaction. The
    /// customer's version grows once per call that changed anything; each customer a chain moved away from
    /// grows too.
    public func record(_ transactions: [StoredTransaction], for appUserId: String, policy: OwnershipPolicy,
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
            // An anonymous id aliased since the caller looked (a post racing the alias) writes for its customer.
            let appUserId = try connection.resolvingAlias(appUserId)
            let outcome = try SQLiteTransactionRows(connection: connection)
                .record(items, for: appUserId, policy: policy, credits: credits, transferLimit: transferLimit, date: date)
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
