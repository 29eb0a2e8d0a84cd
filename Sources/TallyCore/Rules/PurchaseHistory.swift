/// Everything known about one customer's purchases: the input of the ownership rules.
public struct PurchaseHistory: Sendable, Hashable, Codable {
    /// Transactions in any order; the same transaction id may appear more than once
    /// (a later copy, such as a refund's updated record, wins).
    public var transactions: [StoreTransaction]
    /// The latest renewal information per subscription chain.
    public var renewalInfos: [RenewalInfo]
    /// Spends of virtual currency that were accepted.
    public var spends: [Spend]

    /// Creates a history.
    public init(transactions: [StoreTransaction] = [], renewalInfos: [RenewalInfo] = [], spends: [Spend] = []) {
        self.transactions = transactions
        self.renewalInfos = renewalInfos
        self.spends = spends
    }
}
