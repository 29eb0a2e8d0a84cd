import Foundation
import TallyCore
import TallyStorage

/// When a customer's state next changes by itself (a subscription, grace period, entitlement or
/// non-renewing period ending; a future-dated purchase, refund or spend taking effect).
enum StateExpiry {
    /// The earliest such moment after `now`, capped at `now + maximumAge`.
    static func next(after now: Date, state: CustomerState, record: CustomerRecord, maximumAge: TimeInterval) -> Date {
        var earliest = now.addingTimeInterval(maximumAge)
        func consider(_ date: Date?) {
            if let date, date > now, date < earliest { earliest = date }
        }
        for subscription in state.subscriptions {
            consider(subscription.expiresDate)
            consider(subscription.gracePeriodExpiresDate)
        }
        for entitlement in state.entitlements { consider(entitlement.expiresDate) }
        for item in state.nonRenewing { consider(item.expiresDate) }
        for stored in record.transactions {
            consider(stored.transaction.purchaseDate)
            consider(stored.transaction.revocationDate)
            consider(stored.transaction.expiresDate)
        }
        for spend in record.spends { consider(spend.date) }
        return earliest
    }
}
