import Foundation


/// Picks a group's transaction in force: among transactions not revoked, not `isUpgraded` and not
/// superseded by an immediate change (an upgrade or same-length crossgrade bought during their period),
/// the one with the latest `expiresDate`; ties go to the higher level (smaller level number).
///
/// A change that waits for the renewal (a downgrade, a crossgrade to another period length) whose
/// transaction is dated before the running period ends does not start until that period ends.
struct InForceSelection {
    let history: ClassifiedHistory
    let now: Date
    /// Positions of the group's transactions.
    let group: [Int]

    /// The position in force, or nil when none qualifies. Whether it is still running is the caller's question.
    func pick() -> Int? {
        let candidates = group.filter(isCandidate)
        guard let best = candidates.max(by: { ranksAbove($1, $0) }) else { return nil }
        if !group.contains(where: { replaces($0, best) }) && !isWaiting(best, candidates) { return best }
        // Rare: an unflagged upgrade or crossgrade replaced the latest-expiring one, or it waits for the
        // renewal; sort once and walk.
        let ranked = candidates.sorted(by: ranksAbove)
        let byPurchase = group.filter { !history.isRevoked($0, at: now) }
            .sorted { history.purchaseDates[$0] < history.purchaseDates[$1] }
        return ranked.first { !isSuperseded($0, sortedByPurchase: byPurchase) && !isWaiting($0, candidates) }
    }

    /// Whether `position` is a change taking effect at the next renewal of a period still running at `now`.
    private func isWaiting(_ position: Int, _ candidates: [Int]) -> Bool {
        let bought = history.purchaseDates[position]
        return candidates.contains { running in
            guard running != position, let ends = history.expiresDates[running], now < ends,
                  history.purchaseDates[running] < bought, bought < ends,
                  let change = history.table.change(from: history.slots[running], to: history.slots[position])
            else { return false }
            return change == .downgrade || change == .crossgradeAtRenewal
        }
    }

    private func isCandidate(_ position: Int) -> Bool {
        history.expiresDates[position] != nil && !history.isUpgraded[position] && !history.isRevoked(position, at: now)
    }

    /// Later expiry first; then the higher level; then the later purchase; then the later position.
    private func ranksAbove(_ lhs: Int, _ rhs: Int) -> Bool {
        let leftExpires = history.expiresDates[lhs] ?? .distantPast
        let rightExpires = history.expiresDates[rhs] ?? .distantPast
        if leftExpires != rightExpires { return leftExpires > rightExpires }
        let leftLevel = history.table.level(history.slots[lhs]) ?? Int.max
        let rightLevel = history.table.level(history.slots[rhs]) ?? Int.max
        if leftLevel != rightLevel { return leftLevel < rightLevel }
        let leftBought = history.purchaseDates[lhs], rightBought = history.purchaseDates[rhs]
        if leftBought != rightBought { return leftBought > rightBought }
        return lhs > rhs
    }

    /// Whether some transaction bought during `position`'s period replaced it at once (binary search over
    /// the group sorted by purchase date, then a walk through that period).
    private func isSuperseded(_ position: Int, sortedByPurchase: [Int]) -> Bool {
        let start = history.purchaseDates[position]
        var low = 0, high = sortedByPurchase.count
        while low < high {
            let middle = (low + high) / 2
            if history.purchaseDates[sortedByPurchase[middle]] <= start { low = middle + 1 } else { high = middle }
        }
        let end = history.expiresDates[position] ?? start
        for other in sortedByPurchase[low...] {
            if history.purchaseDates[other] >= end { break }
            if replaces(other, position) { return true }
        }
        return false
    }

    /// Whether `newer`, bought strictly inside `older`'s period, took its place at once.
    private func replaces(_ newer: Int, _ older: Int) -> Bool {
        let bought = history.purchaseDates[newer]
        guard newer != older, bought > history.purchaseDates[older],
              bought < (history.expiresDates[older] ?? bought), !history.isRevoked(newer, at: now)
        else { return false }
        return history.table.change(from: history.slots[older], to: history.slots[newer])?
            .takesEffectImmediately == true
    }
}
