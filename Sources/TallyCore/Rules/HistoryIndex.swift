import Foundation


/// The transactions of a history that count at one moment: one copy per transaction id, purchased by then.
///
/// Works with indices into `PurchaseHistory.transactions` so the large `Transaction` values are never copied.
struct HistoryIndex: Sendable {
    /// Indices of the winning copy of every transaction id, in the order each id first appeared.
    let winners: [Int]

    /// Deduplicates `transactions`, keeping only those purchased at or before `now` (all when `now` is nil).
    init(_ transactions: [Transaction], through now: Date?) {
        var slotById: [String: Int] = [:]
        slotById.reserveCapacity(transactions.count)
        var winners: [Int] = []
        winners.reserveCapacity(transactions.count)
        for index in transactions.indices {
            if let now, transactions[index].purchaseDate > now { continue }
            let id = transactions[index].transactionId
            if let slot = slotById[id] {
                if Self.replaces(transactions[index], transactions[winners[slot]]) { winners[slot] = index }
            } else {
                slotById[id] = winners.count
                winners.append(index)
            }
        }
        self.winners = winners
    }

    /// Whether a later-positioned copy beats the current winner: a revoked copy first, then the later
    /// `signedDate`, then the later position.
    static func replaces(_ later: Transaction, _ current: Transaction) -> Bool {
        let laterRevoked = later.revocationDate != nil
        let currentRevoked = current.revocationDate != nil
        if laterRevoked != currentRevoked { return laterRevoked }
        if let laterSigned = later.signedDate, let currentSigned = current.signedDate, laterSigned != currentSigned {
            return laterSigned > currentSigned
        }
        return true
    }
}
