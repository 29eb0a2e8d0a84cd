/// A transaction written locally whose post the server has not taken yet: it stays unfinished with the store.
struct PendingPost: Sendable, Hashable {
    var transactionId: String
    var jwsRepresentation: String
    /// The customer it is posted for: the one whose purchase it is (the link's customer when the purchase was
    /// asked for), which may be another than the link's now after a switch. Nil: the link's customer now.
    var appUserId: String? = nil
    /// Whether it was restored for a switched-to customer (another customer's purchase, maybe), not delivered for
    /// its customer: only a delivered one shows as the customer's while no token tells (``Store/customerCacheState``).
    var restored = false
}
