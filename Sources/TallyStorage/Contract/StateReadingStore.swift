import Foundation

/// A ``CustomerStore`` whose write can read the writer's state record inside its own database transaction.
/// It implements one write, ``record(_:for:policy:at:reading:)``; ``CustomerStore/record(_:for:policy:at:)`` and
/// ``CustomerStore/recordReadingState(_:for:policy:at:knownFactsVersion:)`` are that write with `.none` and with
/// `.state`. ``SQLiteCustomerStore`` and TallyPostgres's `PostgresCustomerStore` are such stores.
public protocol StateReadingStore: CustomerStore {
    /// Stores the transactions as ``CustomerStore/record(_:for:policy:at:)`` does and, for `.state`, reads in the
    /// same transaction, after the write, ``CustomerStore/customerState(_:at:)``'s record of `appUserId` at `date`,
    /// or only the versions and the nets (`onlyNets`) when the facts version is still the known one. Nil for `.none`.
    func record(_ transactions: [StoredTransaction], for appUserId: String, policy: OwnershipPolicy, at date: Date,
                reading: StateReading) throws(CustomerStoreError)
        -> (outcome: RecordOutcome, state: (record: CustomerRecord, onlyNets: Bool)?)
}

extension StateReadingStore {
    /// ``record(_:for:policy:at:reading:)`` reading nothing.
    public func record(_ transactions: [StoredTransaction], for appUserId: String, policy: OwnershipPolicy,
                       at date: Date) throws(CustomerStoreError) -> RecordOutcome {
        try record(transactions, for: appUserId, policy: policy, at: date, reading: .none).outcome
    }

    /// ``record(_:for:policy:at:reading:)`` reading the state record in the write's own transaction.
    public func recordReadingState(_ transactions: [StoredTransaction], for appUserId: String,
                                   policy: OwnershipPolicy, at date: Date, knownFactsVersion: Int64?) throws(CustomerStoreError)
        -> (outcome: RecordOutcome, state: CustomerRecord, onlyNets: Bool)
    {
        let (outcome, state) = try record(transactions, for: appUserId, policy: policy, at: date,
                                          reading: .state(knownFactsVersion: knownFactsVersion))
        return (outcome, state?.record ?? CustomerRecord(appUserId: appUserId), state?.onlyNets ?? false)
    }
}
