import Foundation
import TallyCore

/// Everything a store keeps for one customer: the input of the rules and of the history endpoint.
public struct CustomerRecord: Sendable, Hashable {
    /// The app's id for the customer.
    public var appUserId: String
    /// The customer's transactions (one per transaction id, the latest copy), in any order; a record read for
    /// the state only (``CustomerStore/customerState(_:)``) holds no consumables.
    public var transactions: [StoredTransaction]
    /// Accepted spends, in any order (none in a record read for the state only).
    public var spends: [Spend]
    /// Chains moved to or away from this customer, oldest first (none in a record read for the state only).
    public var transfers: [OwnershipTransfer]
    /// Grows with every write to this customer; 0 for a customer never written. Caches key on it.
    public var version: Int64
    /// The ``version`` at which the customer's facts — everything a state reads besides the nets (transactions that
    /// are not consumables, renewal info, chains) — last changed; writes that move only the nets (spends, coin
    /// purchases and refunds) leave it. Two records with the same facts version give the same state but for the nets.
    public var factsVersion: Int64
    /// The net amount per currency the store keeps materialised (credits − claw-backs − spends, see
    /// `CurrencyCredits`): balances and debts come from it, not from replaying the history.
    public var nets: [String: Decimal]
    /// The renewal info of each subscription chain the customer owns (the newest copy stored), in any order.
    public var renewalInfos: [RenewalInfo]
    /// App Store Server Notifications applied to the customer, oldest received first (none in a record read
    /// for the state only).
    public var notifications: [NotificationEntry]

    /// Creates a record.
    public init(appUserId: String, transactions: [StoredTransaction] = [], spends: [Spend] = [],
                transfers: [OwnershipTransfer] = [], version: Int64 = 0, factsVersion: Int64 = 0,
                nets: [String: Decimal] = [:], renewalInfos: [RenewalInfo] = [], notifications: [NotificationEntry] = []) {
        self.appUserId = appUserId
        self.transactions = transactions
        self.spends = spends
        self.transfers = transfers
        self.version = version
        self.factsVersion = factsVersion
        self.nets = nets
        self.renewalInfos = renewalInfos
        self.notifications = notifications
    }

    /// The purchase history the TallyCore rules read.
    public var purchaseHistory: PurchaseHistory {
        PurchaseHistory(transactions: transactions.map(\.transaction), renewalInfos: renewalInfos, spends: spends)
    }
}
