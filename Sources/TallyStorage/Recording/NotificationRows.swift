import Foundation
import TallyCore

/// What ``NotificationRecorder`` needs of a store's rows besides ``TransactionRows``, inside one write
/// transaction; each method is one step in the store's own SQL and decides nothing.
public protocol NotificationRows: TransactionRows {
    /// What ``claim(_:date:)`` hands to ``settle(_:_:result:owner:date:)``.
    associatedtype Claim

    /// Takes the notification's `notificationUUID` for this transaction (the chain is locked); nil when it is
    /// stored already, by this write or one committed before (a duplicate).
    func claim(_ item: PreparedNotification, date: Date) throws(Failure) -> Claim?
    /// Stores what became of a claimed notification: its result and the customer it was applied to.
    func settle(_ claim: Claim, _ item: PreparedNotification, result: NotificationResult, owner: String?,
                date: Date) throws(Failure)
    /// The notifications pending for `chain`, oldest received first (locked where the store locks rows).
    func pendingNotifications(for chain: String) throws(Failure) -> [PendingNotification]
    /// Stores the result of a pending notification applied to `owner`.
    func settlePending(_ sequence: Int64, result: NotificationResult, owner: String, date: Date) throws(Failure)
    /// The renewal info stored for `chain`; nil when none.
    func storedRenewalInfo(of chain: String) throws(Failure) -> RenewalInfo?
    /// Stores `info` as its chain's renewal info (inserting or replacing).
    func writeRenewalInfo(_ info: PreparedRenewalInfo, date: Date) throws(Failure)
}

/// A stored notification waiting for its chain's owner, read back.
public struct PendingNotification: Sendable {
    /// Its row's `sequence`.
    public var sequence: Int64
    /// Its transaction, prepared again.
    public var transaction: PreparedTransaction?
    /// Its renewal info.
    public var renewalInfo: PreparedRenewalInfo?

    /// Creates one.
    public init(sequence: Int64, transaction: PreparedTransaction?, renewalInfo: PreparedRenewalInfo?) {
        self.sequence = sequence
        self.transaction = transaction
        self.renewalInfo = renewalInfo
    }
}
