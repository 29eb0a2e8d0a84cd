import Foundation
import TallyCore
import TallyStorage

extension PostgresCustomerStore: StateReadingStore {
    /// Everything stored for `appUserId`, from one statement's snapshot.
    public func customer(_ appUserId: String) throws(CustomerStoreError) -> CustomerRecord {
        try read("the customer cannot be read") { (connection) throws(PostgresError) in
            try connection.customerRecord(appUserId)
        }
    }

    /// The version, nets and non-consumable transactions of `appUserId`, from one statement's snapshot.
    public func customerState(_ appUserId: String) throws(CustomerStoreError) -> CustomerRecord {
        try read("the customer state cannot be read") { (connection) throws(PostgresError) in
            try connection.customerStateRecord(appUserId)
        }
    }

    /// ``customerState(_:)`` for a state at `date`: the periods superseded by then are left out.
    public func customerState(_ appUserId: String, at date: Date) throws(CustomerStoreError) -> CustomerRecord {
        try read("the customer state cannot be read") { (connection) throws(PostgresError) in
            try connection.customerStateRecord(appUserId, at: date)
        }
    }

    /// Stores the transactions in one transaction (see ``TallyServer/CustomerStore/record(_:for:policy:at:)``) and
    /// reads what `reading` asks in the same transaction (``TallyServer/StateReadingStore``).
    public func record(_ transactions: [StoredTransaction], for appUserId: String, policy: OwnershipPolicy,
                        at date: Date, reading: StateReading) throws(CustomerStoreError)
        -> (outcome: RecordOutcome, state: (record: CustomerRecord, onlyNets: Bool)?)
    {
        var prepared: [PreparedTransaction] = []
        for transaction in transactions { prepared.append(try PreparedTransaction(transaction)) }
        let items = prepared, credits = self.credits, transferLimit = self.transferLimit
        return try write("the transactions cannot be stored") {
            (connection) throws(PostgresError) -> (outcome: RecordOutcome, state: (record: CustomerRecord, onlyNets: Bool)?) in
            // An anonymous id aliased since the caller looked (a post racing the alias) writes for its customer.
            let appUserId = try connection.lockResolvingAlias(appUserId)
            let outcome = try PostgresTransactionRows(connection: connection)
                .record(items, for: appUserId, policy: policy, credits: credits, transferLimit: transferLimit, date: date)
            guard case .state(let known) = reading else { return (outcome, nil) }
            if let known {
                // The versions and the nets in one statement; the whole record only when the facts moved.
                let record = try connection.versionAndNets(appUserId)
                if record.factsVersion == known { return (outcome, (record, true)) }
            }
            return (outcome, (try connection.customerStateRecord(appUserId, at: date), false))
        }
    }
}
