/// A transaction written locally whose post the server has not taken yet: it stays unfinished with the store.
struct PendingPost: Sendable, Hashable {
    var transactionId: String
    var jwsRepresentation: String
}
