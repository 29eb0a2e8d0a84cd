import Foundation

/// What ``CustomerStore/record(_:for:policy:at:)`` did with each posted transaction.
public struct RecordOutcome: Sendable, Hashable {
    /// Transaction ids stored for the first time.
    public var inserted: [String]
    /// Transaction ids whose stored copy was replaced by a different one.
    public var updated: [String]
    /// Transaction ids already stored exactly so.
    public var unchanged: [String]
    /// Chains moved to this customer.
    public var transfers: [OwnershipTransfer]
    /// Transaction ids left with another customer under ``OwnershipPolicy/keep``.
    public var kept: [String]
    /// Other customers whose kept chains took a new or changed transaction from this post (a refund posted
    /// by someone else still revokes the owner's copy); their cached state is stale.
    public var ownersUpdated: [String]
    /// Transaction ids whose chain would have moved to this customer under ``OwnershipPolicy/transfer`` but had
    /// moved ``TransferLimit/perChainPerHour`` times within the hour: left with their owner (also in ``kept``).
    public var transferLimited: [String] = []
    /// With ``transferLimited``: when the first of those chains may move again.
    public var transferAllowedAgain: Date?

    /// Creates an outcome.
    public init(inserted: [String] = [], updated: [String] = [], unchanged: [String] = [],
                transfers: [OwnershipTransfer] = [], kept: [String] = [], ownersUpdated: [String] = []) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.transfers = transfers
        self.kept = kept
        self.ownersUpdated = ownersUpdated
    }

    /// Whether the customer's stored data changed.
    public var changedAnything: Bool { !inserted.isEmpty || !updated.isEmpty || !transfers.isEmpty }
}
