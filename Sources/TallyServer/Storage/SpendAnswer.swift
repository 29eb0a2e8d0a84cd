/// What ``CustomerStore/spend(id:currency:for:at:encoding:admit:)`` did, with the encoded state to answer with.
public struct SpendAnswer: Sendable, Hashable {
    /// True when a spend with this id was already stored and nothing changed (``SpendOutcome/duplicate``).
    public var isDuplicate: Bool
    /// The customer's state after the spend (or now, for a duplicate), at the customer's version after it.
    public var state: StoredCustomerState

    /// Creates an answer.
    public init(isDuplicate: Bool, state: StoredCustomerState) {
        self.isDuplicate = isDuplicate
        self.state = state
    }
}
