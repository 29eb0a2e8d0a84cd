/// What one ``CustomerStore/reconcile(_:renewalInfos:revision:for:at:)`` write did.
public struct ReconcileOutcome: Sendable, Hashable {
    /// The transactions, as a post's outcome.
    public var transactions: RecordOutcome
    /// Renewal infos that replaced the stored ones.
    public var renewalInfosUpdated: Int
    /// Transaction ids left unstored: their chain has no owner and their `appAccountToken` is another customer's
    /// or nobody's yet (the Apple account is shared), so they wait for the customer they were bought for.
    public var pending: [String]

    /// Creates an outcome.
    public init(transactions: RecordOutcome = RecordOutcome(), renewalInfosUpdated: Int = 0, pending: [String] = []) {
        self.transactions = transactions
        self.renewalInfosUpdated = renewalInfosUpdated
        self.pending = pending
    }
}
