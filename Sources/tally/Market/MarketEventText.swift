import Foundation
import Tally

/// One line per store event, as the market prints them: `event: purchased market.coins.10 (transaction 2…)`.
enum MarketEventText {
    static func line(_ event: StoreEvent) -> String {
        "event: " + text(event)
    }

    /// The event's line, then the demo app's `Premium: UNLOCKED|LOCKED` label when the event changes it.
    static func lines(_ event: StoreEvent) -> [String] {
        guard case .entitlementsChanged(let gained, let lost) = event else { return [line(event)] }
        let premium = gained.contains("premium") ? ["Premium: UNLOCKED"] : lost.contains("premium") ? ["Premium: LOCKED"] : []
        return [line(event)] + premium
    }

    private static func text(_ event: StoreEvent) -> String {
        switch event {
        case .purchasing(let productId, _):
            return "purchasing \(productId)"
        case .purchased(let transaction, let context):
            let screen = context?.screen.map { ", context screen=\($0)" } ?? ""
            return "purchased \(transaction.productId) (transaction \(transaction.transactionId)\(screen))"
        case .pending(let pending):
            return "pending \(pending.productId) (purchase \(pending.id) waits for approval)"
        case .cancelled(let productId):
            return "cancelled \(productId)"
        case .failed(let productId, let reason) where reason.code == .cancelled:
            return "cancelled \(productId ?? "restore"): \(reason.message)"
        case .failed(let productId, let reason):
            return "failed \(productId ?? "restore"): \(reason.message)"
        case .restored(let count):
            return "restored \(count) transaction\(count == 1 ? "" : "s")"
        case .revoked(let transaction):
            return "revoked \(transaction.productId) (transaction \(transaction.transactionId))"
        case .renewed(let transaction):
            let expiry = transaction.expiresDate.map { ", expires \($0.formatted(.iso8601))" } ?? ""
            return "renewed \(transaction.productId) (transaction \(transaction.transactionId)\(expiry))"
        case .expired(let subscription):
            return "expired \(subscription.productId) (group \(subscription.groupId))"
        case .billingRetry(let subscription):
            return "billingRetry \(subscription.productId): a renewal failed, access ended (the store retries)"
        case .gracePeriod(let subscription):
            let end = subscription.gracePeriodExpiresDate.map { " until \($0.formatted(.iso8601))" } ?? ""
            return "gracePeriod \(subscription.productId): a renewal failed, access kept\(end)"
        case .entitlementsChanged(let gained, let lost):
            return "entitlementsChanged gained \(gained.isEmpty ? "none" : gained.joined(separator: ", ")); "
                + "lost \(lost.isEmpty ? "none" : lost.joined(separator: ", "))"
        case .changeScheduled(let change):
            let date = change.date.map { " on \($0.formatted(.iso8601))" } ?? ""
            return "changeScheduled \(change.currentProductId) → \(change.productId) at the next renewal\(date)"
        case .changeCancelled(let change):
            return "changeCancelled \(change.currentProductId) → \(change.productId); "
                + "\(change.currentProductId) renews as it is"
        case .balanceChanged(let currency, let balance):
            return "balanceChanged \(currency) \(balance)"
        case .declined(let pending):
            let screen = pending.context.screen.map { ", context screen=\($0)" } ?? ""
            return "declined \(pending.productId) (purchase \(pending.id) was declined; nothing was charged\(screen))"
        case .serverRefused(let transactionId, let status, let code, let message):
            return "serverRefused \(transactionId) (\(status) \(code): \(message); finished, not posted again)"
        case .customerSwitched(let change):
            let moved = change.transferred.map(\.productId), kept = change.kept.map(\.productId)
            return "customerSwitched \(change.previousAppUserId) → \(change.appUserId): \(change.ownership.rawValue)"
                + (moved.isEmpty ? "" : "; transferred here \(moved.joined(separator: ", "))")
                + (kept.isEmpty ? "" : "; kept by their owner \(kept.joined(separator: ", "))")
                + (change.notPosted.isEmpty ? "" : "; \(change.notPosted.count) not posted (server unreachable)")
        case .offeringsChanged(let offerings):
            return "offeringsChanged " + MarketOfferingsText.summary(offerings)
        }
    }
}
