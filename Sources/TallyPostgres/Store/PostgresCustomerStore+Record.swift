import Foundation
import TallyCore
import TallyServer

extension PostgresCustomerStore {
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

    /// Stores the transactions in one transaction (see ``TallyServer/CustomerStore/record(_:for:policy:at:)``).
    public func record(_ transactions: [StoredTransaction], for appUserId: String, policy: OwnershipPolicy,
                       at date: Date) throws(CustomerStoreError) -> RecordOutcome {
        try record(transactions, for: appUserId, policy: policy, at: date, readingState: false).outcome
    }

    /// ``record(_:for:policy:at:)`` with the state record read inside the same transaction, after the write.
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
        for transaction in transactions { prepared.append(try PreparedTransaction(transaction)) }
        let items = prepared, credits = self.credits
        return try write("the transactions cannot be stored") {
            (connection) throws(PostgresError) -> (outcome: RecordOutcome, state: CustomerRecord?) in
            let outcome = try PostgresTransactionRows(connection: connection)
                .record(items, for: appUserId, policy: policy, credits: credits, date: date)
            return (outcome, readingState ? try connection.customerStateRecord(appUserId) : nil)
        }
    }
}
