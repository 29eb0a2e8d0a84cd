import Foundation


/// Picks a group's transaction in force: among transactions not revoked, not `isUpgraded` and not
/// superseded by an immediate change (an upgrade or same-length crossgrade bought during their period),
/// the one with the latest `expiresDate`; ties go to the higher level (smaller level number).
struct InForceSelection {
    let transactions: [Transaction]
    let products: ProductLookup
    let now: Date
    let group: [Int]

    /// The transaction in force, or nil when none qualifies. Whether it is still running is the caller's question.
    func pick() -> Int? {
        let candidates = group.filter(isCandidate)
        guard let best = candidates.max(by: { ranksAbove($1, $0) }) else { return nil }
        if !isSuperseded(best, among: group) { return best }
        // Rare: an unflagged upgrade or crossgrade replaced the latest-expiring one; sort once and walk.
        let ranked = candidates.sorted(by: ranksAbove)
        let byPurchase = group.filter { !transactions[$0].isRevoked(at: now) }
            .sorted { transactions[$0].purchaseDate < transactions[$1].purchaseDate }
        return ranked.first { !isSuperseded($0, sortedByPurchase: byPurchase) }
    }

    private func isCandidate(_ index: Int) -> Bool {
        transactions[index].expiresDate != nil && transactions[index].isUpgraded != true
            && !transactions[index].isRevoked(at: now)
    }

    /// Later expiry first; then the higher level; then the later purchase; then the later position.
    private func ranksAbove(_ lhs: Int, _ rhs: Int) -> Bool {
        let leftExpires = transactions[lhs].expiresDate ?? .distantPast
        let rightExpires = transactions[rhs].expiresDate ?? .distantPast
        if leftExpires != rightExpires { return leftExpires > rightExpires }
        let leftLevel = products[transactions[lhs].productId]?.level ?? Int.max
        let rightLevel = products[transactions[rhs].productId]?.level ?? Int.max
        if leftLevel != rightLevel { return leftLevel < rightLevel }
        let leftBought = transactions[lhs].purchaseDate, rightBought = transactions[rhs].purchaseDate
        if leftBought != rightBought { return leftBought > rightBought }
        return lhs > rhs
    }

    /// Whether some transaction bought during `index`'s period replaced it at once.
    private func isSuperseded(_ index: Int, among others: [Int]) -> Bool {
        others.contains { replaces($0, index) }
    }

    private func isSuperseded(_ index: Int, sortedByPurchase: [Int]) -> Bool {
        let start = transactions[index].purchaseDate
        var low = 0, high = sortedByPurchase.count
        while low < high {
            let middle = (low + high) / 2
            if transactions[sortedByPurchase[middle]].purchaseDate <= start { low = middle + 1 } else { high = middle }
        }
        let end = transactions[index].expiresDate ?? start
        for other in sortedByPurchase[low...] {
            if transactions[other].purchaseDate >= end { break }
            if replaces(other, index) { return true }
        }
        return false
    }

    /// Whether `newer`, bought strictly inside `older`'s period, took its place at once.
    private func replaces(_ newer: Int, _ older: Int) -> Bool {
        let bought = transactions[newer].purchaseDate
        guard newer != older, !transactions[newer].isRevoked(at: now),
              bought > transactions[older].purchaseDate, bought < (transactions[older].expiresDate ?? bought)
        else { return false }
        return products.change(from: transactions[older].productId, to: transactions[newer].productId)?
            .takesEffectImmediately == true
    }
}
