import TallyCore


/// The customer's transactions, one copy per id, in arrival order, with an index by id. Handing the list to
/// the ownership rules costs nothing (the array is shared, copy-on-write); the rules take any order.
struct TransactionTable: Sendable, Hashable {
    /// The transactions, first arrival first; a later copy replaces an earlier one in place.
    private(set) var all: [Transaction] = []
    private var positions: [String: Int] = [:]

    /// The stored copy of a transaction.
    subscript(transactionId: String) -> Transaction? {
        positions[transactionId].map { all[$0] }
    }

    /// How many transactions.
    var count: Int { all.count }

    /// The ids, first arrival first.
    var ids: [String] { all.map(\.transactionId) }

    /// Keeps the copy that counts (``Transaction/newest(stored:incoming:)``: newer facts win).
    mutating func merge(_ transaction: Transaction) {
        if let position = positions[transaction.transactionId] {
            all[position] = Transaction.newest(stored: all[position], incoming: transaction)
        } else {
            positions[transaction.transactionId] = all.count
            all.append(transaction)
        }
    }
}

/// JSON form: an array of transactions.
extension TransactionTable: Codable {
    /// Reads the array; a repeated id is merged.
    init(from decoder: Decoder) throws {
        for transaction in try [Transaction](from: decoder) { merge(transaction) }
    }

    /// Writes the array.
    func encode(to encoder: Encoder) throws {
        try all.encode(to: encoder)
    }
}
