import Foundation


/// The transactions that count at one moment — one copy per transaction id (``StoreTransaction/supersedes(_:)``:
/// newer facts win), purchased by `now` — with the facts the rules need, laid out
/// as parallel arrays indexed by *position*.
///
/// This is the only code that reads `StoreTransaction` values in bulk: one sequential pass, because a history of
/// 100,000 transactions of about 500 bytes each is far larger than the CPU caches, and every further pass
/// over it would cost more than all the rules together.
struct ClassifiedHistory: Sendable {
    /// The positions that count, one per transaction id, in the order each id first appeared. The arrays
    /// below hold every transaction purchased by `now`, duplicates included; read them only at these positions.
    let positions: [Int]
    /// Index into the history's transactions of each position.
    let indices: [Int]
    /// The history's transactions.
    let transactions: [StoreTransaction]
    /// Product slot in ``table``.
    let slots: [Int]
    /// The kind each counts as; nil when neither its type nor the catalog says.
    let kinds: [ProductKind?]
    let purchaseDates: [Date]
    let expiresDates: [Date?]
    let revocationDates: [Date?]
    let quantities: [Int]
    let isUpgraded: [Bool]
    let usedIntroductoryOffer: [Bool]
    /// The products met.
    let table: ProductTable

    init(_ transactions: [StoreTransaction], through now: Date?, products: ProductLookup, rates: CurrencyRates) {
        // Pass 1, sequential: the facts of every transaction purchased by `now`, and the hash of its id.
        var facts = ClassifiedHistoryFacts(capacity: transactions.count)
        var hashes: [UInt64] = []
        hashes.reserveCapacity(transactions.count)
        var table = ProductTable(lookup: products, rates: rates)
        var recent = RecentProduct()
        for index in transactions.indices {
            if let now, transactions[index].purchaseDate > now { continue }
            hashes.append(StringPositions.hash(transactions[index].transactionId))
            let (slot, kind) = recent.slotAndKind(of: transactions[index].productId,
                                                  type: transactions[index].type, in: &table)
            facts.append(index: index, slot: slot, kind: kind, from: transactions)
        }
        let counted = facts.indices
        let winners = Self.winners(counted: counted, hashes: hashes, in: transactions)
        self.positions = winners
        self.transactions = transactions
        indices = counted
        slots = facts.slots
        kinds = facts.kinds
        purchaseDates = facts.purchaseDates
        expiresDates = facts.expiresDates
        revocationDates = facts.revocationDates
        quantities = facts.quantities
        isUpgraded = facts.isUpgraded
        usedIntroductoryOffer = facts.usedIntroductoryOffer
        self.table = table
    }

    /// Pass 2: the position of the winning copy of each id, in the order ids first appear. Only the hash
    /// table is read at random; transactions are read again only for duplicates.
    private static func winners(counted: [Int], hashes: [UInt64], in transactions: [StoreTransaction]) -> [Int] {
        var ids = StringPositions(capacity: counted.count)
        var winners: [Int] = []
        winners.reserveCapacity(counted.count)
        for position in counted.indices {
            let (inserted, slot) = ids.insert(hash: hashes[position]) {
                transactions[counted[winners[$0]]].transactionId.hasSameBytes(as: transactions[counted[position]].transactionId)
            }
            if inserted {
                winners.append(position)
            } else if replaces(counted[position], counted[winners[slot]], in: transactions) {
                winners[slot] = position
            }
        }
        return winners
    }

    /// The transaction id at `position`.
    func transactionId(_ position: Int) -> String {
        transactions[indices[position]].transactionId
    }

    /// The `subscriptionGroupIdentifier` of the transaction at `position` (read from the transaction: only
    /// auto-renewables need it, so the pass does not copy it for every purchase).
    func groupId(_ position: Int) -> String? {
        transactions[indices[position]].subscriptionGroupIdentifier
    }

    /// True when the transaction at `position` was refunded or revoked at or before `date`.
    func isRevoked(_ position: Int, at date: Date) -> Bool {
        guard let revoked = revocationDates[position] else { return false }
        return revoked <= date
    }

    /// Whether the copy at `later` (a later position in the history) beats the copy at `current`, by
    /// ``StoreTransaction/supersedes(_:)`` (newer facts win; on a full tie, the later position).
    static func replaces(_ later: Int, _ current: Int, in transactions: [StoreTransaction]) -> Bool {
        transactions[later].supersedes(transactions[current])
    }
}
