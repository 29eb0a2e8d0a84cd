import TallyCore


/// The customer's transactions, one copy per id, in arrival order, with an index by id and each copy's signed
/// form. Handing the list to the ownership rules costs nothing (the array is shared, copy-on-write); the rules
/// take any order.
struct TransactionTable: Sendable, Hashable {
    /// The transactions, first arrival first; a later copy replaces an earlier one in place.
    private(set) var all: [StoreTransaction] = []
    /// The signed form of each copy in ``all``, at the same position; nil only for a copy read from a file
    /// written before Tally kept signed forms (never trusted: see ``CustomerFile``).
    private(set) var signedForms: [String?] = []
    private var positions: [String: Int] = [:]

    /// The stored copy of a transaction.
    subscript(transactionId: String) -> StoreTransaction? {
        positions[transactionId].map { all[$0] }
    }

    /// The signed form of the stored copy of a transaction.
    func jwsRepresentation(of transactionId: String) -> String? {
        positions[transactionId].flatMap { signedForms[$0] }
    }

    /// How many transactions.
    var count: Int { all.count }

    /// The ids, first arrival first.
    var ids: [String] { all.map(\.transactionId) }

    /// Keeps the copy that counts (``StoreTransaction/newest(stored:incoming:)``: newer facts win), with its signed form.
    mutating func merge(_ transaction: StoreTransaction, jwsRepresentation: String?) {
        if let position = positions[transaction.transactionId] {
            let kept = StoreTransaction.newest(stored: all[position], incoming: transaction)
            guard kept != all[position] || signedForms[position] == nil else { return }
            all[position] = kept
            signedForms[position] = jwsRepresentation
        } else {
            positions[transaction.transactionId] = all.count
            all.append(transaction)
            signedForms.append(jwsRepresentation)
        }
    }

    /// The table without the transactions `excluded` names.
    func removing(_ excluded: Set<String>) -> TransactionTable {
        var table = TransactionTable()
        for (transaction, jws) in zip(all, signedForms) where !excluded.contains(transaction.transactionId) {
            table.merge(transaction, jwsRepresentation: jws)
        }
        return table
    }
}

/// JSON form: an array of `{"transaction": {…}, "jwsRepresentation": "…"}`. Files written before signed forms
/// were kept hold bare transactions; those read back with no signed form.
extension TransactionTable: Codable {
    private struct SignedCopy: Codable {
        var transaction: StoreTransaction
        var jwsRepresentation: String?
    }

    private enum Copy: Decodable {
        case signed(SignedCopy)
        case bare(StoreTransaction)

        init(from decoder: Decoder) throws {
            let keys = try decoder.container(keyedBy: AnyCodingKey.self)
            if keys.contains(AnyCodingKey("transaction")) {
                self = .signed(try SignedCopy(from: decoder))
            } else {
                self = .bare(try StoreTransaction(from: decoder))
            }
        }
    }

    /// Reads the array; a repeated id is merged.
    init(from decoder: Decoder) throws {
        for copy in try [Copy](from: decoder) {
            switch copy {
            case .signed(let signed): merge(signed.transaction, jwsRepresentation: signed.jwsRepresentation)
            case .bare(let transaction): merge(transaction, jwsRepresentation: nil)
            }
        }
    }

    /// Writes the array.
    func encode(to encoder: Encoder) throws {
        try zip(all, signedForms).map { SignedCopy(transaction: $0, jwsRepresentation: $1) }.encode(to: encoder)
    }
}
