/// What one ``CustomerStore/reconcile(_:renewalInfos:revision:for:at:)`` write did.
public struct ReconcileOutcome: Sendable, Hashable {
    /// The transactions, as a post's outcome.
    public var transactions: RecordOutcome
    /// Renewal infos that replaced the stored ones.
    public var renewalInfosUpdated: Int

    /// Creates an outcome.
    public init(transactions: RecordOutcome = RecordOutcome(), renewalInfosUpdated: Int = 0) {
        self.transactions = transactions
        self.renewalInfosUpdated = renewalInfosUpdated
    }
}
