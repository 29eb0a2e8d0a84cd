import Foundation
import TallyCore


extension CustomerState {
    /// This state (the server's, as saved) with what this device's transactions not posted yet change: the
    /// ownership rules over the customer file with them (`after`) against without them (`before`). Balances move
    /// by the difference; features, non-consumables, subscription groups and non-renewing products they bring
    /// are added. What they take away (a refund not posted yet) is not applied: the server decides that when it
    /// gets the post.
    func addingUnposted(before: CustomerState, after: CustomerState) -> CustomerState {
        var shown = self
        for currency in Set(before.balances.keys).union(after.balances.keys) {
            let moved = (after.balances[currency] ?? 0) - (before.balances[currency] ?? 0)
            if moved > 0 { shown.balances[currency] = (shown.balances[currency] ?? 0) + moved }
        }
        let had = Set(before.entitlements.map(\.feature)), has = Set(shown.entitlements.map(\.feature))
        shown.entitlements += after.entitlements.filter { !had.contains($0.feature) && !has.contains($0.feature) }
        shown.entitlements.sort { $0.feature < $1.feature }
        let owned = Set(before.nonConsumables).union(shown.nonConsumables)
        shown.nonConsumables = (shown.nonConsumables + after.nonConsumables.filter { !owned.contains($0) }).sorted()
        for group in after.subscriptions where !before.subscriptions.contains(group) {
            shown.subscriptions.removeAll { $0.groupId == group.groupId }
            shown.subscriptions.append(group)
        }
        shown.subscriptions.sort { $0.groupId < $1.groupId }
        let active = Set(shown.nonRenewing.map(\.productId))
        shown.nonRenewing += after.nonRenewing.filter { !before.nonRenewing.contains($0) && !active.contains($0.productId) }
        return shown
    }
}
