/// What happens when a customer posts a transaction whose chain already belongs to another customer
/// (a restore after logging in with a new account).
public enum OwnershipPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// The chain moves to the customer who posted it; the history records the move.
    case transfer
    /// The chain stays with its first owner; the post changes nothing for it.
    case keep
}
