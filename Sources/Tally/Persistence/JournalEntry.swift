import Foundation
import TallyCore


/// One change to the customer record, as one checksummed line of the journal.
enum JournalEntry: Sendable, Hashable, Codable {
    /// A transaction delivered or restored (merged with the copy already known), with its signed form. Lines
    /// written before Tally kept signed forms have none; they are never trusted.
    case transaction(StoreTransaction, jwsRepresentation: String?)
    /// A subscription chain's renewal info, with its signed form. Lines written before Tally kept them have none;
    /// they are never trusted.
    case renewalInfo(RenewalInfo, jwsRepresentation: String?)
    /// An accepted spend.
    case spend(Spend)
    /// A transaction finished with the backend.
    case finished(String)
    /// A purchase now waiting for approval.
    case pending(PendingPurchase)
    /// A pending purchase completed (by its purchase id).
    case resolved(String)
    /// Whether a rebuild from the store is still needed.
    case restored(needsRestore: Bool)
}
