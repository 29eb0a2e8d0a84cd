/// A transaction written locally whose post the server has not taken yet: it stays unfinished with the store.
struct PendingPost: Sendable, Hashable {
    var transactionId: String
    var jwsRepresentation: String
    /// The customer it is posted for: the one whose purchase it is (the link's customer when the purchase was
    /// asked for), which may be another than the link's now after a switch. Nil: the link's customer now.
    var appUserId: String? = nil
}
