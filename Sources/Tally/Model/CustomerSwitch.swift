import TallyCore


/// What ``Store/switchCustomer(to:appAccountToken:)`` did: the customer the store now speaks for, and what the
/// server made of each purchase this device's App Store account restored and posted for that customer, under
/// the server's `ownership` policy (docs/server.md, *Customers*).
public struct CustomerSwitch: Sendable, Hashable {
    /// One restored transaction and the server's answer to its post.
    public struct Posted: Sendable, Hashable {
        /// The restored transaction.
        public var transaction: StoreTransaction
        /// What the server did with it; nil when the server's 2xx answer named no outcome this engine knows (a
        /// newer server): stored, but how is not known — not counted as transferred or kept.
        public var outcome: ServerOutcome?
    }

    /// One restored transaction the server refused for good (a 422, or a 409 other than
    /// `owned_by_another_customer`): not posted again; also in ``Store/diagnostics`` and a
    /// ``StoreEvent/serverRefused(transactionId:status:code:message:)`` event.
    public struct Refused: Sendable, Hashable {
        /// The restored transaction.
        public var transaction: StoreTransaction
        /// The server's HTTP status.
        public var status: Int
        /// The server's error code (`verification_failed`).
        public var code: String
        /// The server's error message.
        public var message: String
    }

    /// The customer before the switch.
    public var previousAppUserId: String
    /// The customer from now on.
    public var appUserId: String
    /// Each restored transaction the server answered for, in the order restored.
    public var posted: [Posted]
    /// Restored transactions the server could not be reached for: they count for the new customer only once
    /// posted (the store posts them again with back-off; after a restart, a ``Store/restore()`` does).
    public var notPosted: [StoreTransaction]
    /// Restored transactions the server refused for good, in the order restored.
    public var refused: [Refused]

    /// The purchases whose chain moved to the new customer (the server's `ownership: transfer`).
    public var transferred: [StoreTransaction] { posted.filter { $0.outcome == .transferred }.map(\.transaction) }
    /// The purchases that stayed with another customer (the server's `ownership: keep`): the new customer does
    /// not get them; tell the user which account holds them.
    public var kept: [StoreTransaction] { posted.filter { $0.outcome == .kept }.map(\.transaction) }

    /// The switch's ownership outcome in one word: ``Ownership/transferred`` when any purchase moved here,
    /// else ``Ownership/kept`` when any stayed with another customer, else ``Ownership/none``.
    public var ownership: Ownership {
        if posted.contains(where: { $0.outcome == .transferred }) { return .transferred }
        if posted.contains(where: { $0.outcome == .kept }) { return .kept }
        return .none
    }

    /// The switch's ownership outcome.
    public enum Ownership: String, Sendable, Hashable {
        /// Purchases of another customer moved to this one.
        case transferred
        /// Purchases stayed with another customer.
        case kept
        /// Nothing restored belonged to another customer.
        case none
    }
}
