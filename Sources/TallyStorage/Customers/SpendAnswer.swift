/// What ``CustomerStore/spend(id:currency:for:at:encoding:admit:)`` did, with the encoded state to answer with.
public struct SpendAnswer: Sendable, Hashable {
    /// True when a spend with this id was already stored and nothing changed (``SpendOutcome/duplicate(_:)``).
    public var isDuplicate: Bool
    /// The customer's state after the spend (or now, for a duplicate), at the customer's version after it.
    public var state: StoredCustomerState
    /// The customer's ``CustomerRecord/factsVersion`` (a spend leaves it), when the store read it.
    public var factsVersion: Int64?

    /// Creates an answer.
    public init(isDuplicate: Bool, state: StoredCustomerState, factsVersion: Int64? = nil) {
        self.isDuplicate = isDuplicate
        self.state = state
        self.factsVersion = factsVersion
    }
}
