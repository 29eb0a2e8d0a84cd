import Foundation
import TallyCore

/// The `customer` object of docs/server.md, written field by field in the documented order.
enum CustomerJSON {
    /// The encoded object for `appUserId` in `state`.
    static func encode(appUserId: String, state: CustomerState) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("appUserId")
        writer.string(appUserId)
        writer.key("entitlements")
        writer.beginArray()
        for entitlement in state.entitlements {
            writer.beginObject()
            writer.key("feature")
            writer.string(entitlement.feature)
            writer.key("productIds")
            strings(entitlement.productIds, &writer)
            writer.key("expiresDate")
            writer.date(entitlement.expiresDate)
            writer.endObject()
        }
        writer.endArray()
        writer.key("nonConsumables")
        strings(state.nonConsumables, &writer)
        writer.key("subscriptions")
        writer.beginArray()
        for subscription in state.subscriptions { write(subscription, &writer) }
        writer.endArray()
        writer.key("nonRenewing")
        writer.beginArray()
        for item in state.nonRenewing {
            writer.beginObject()
            writer.key("productId")
            writer.string(item.productId)
            writer.key("expiresDate")
            writer.date(item.expiresDate)
            writer.key("isActive")
            writer.bool(item.isActive)
            writer.endObject()
        }
        writer.endArray()
        writer.key("balances")
        amounts(state.balances, &writer)
        writer.key("debts")
        amounts(state.debts, &writer)
        writer.endObject()
        return writer.bytes
    }

    private static func write(_ subscription: CustomerState.Subscription, _ writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("groupId")
        writer.string(subscription.groupId)
        writer.key("productId")
        writer.string(subscription.productId)
        writer.key("status")
        writer.string(subscription.status.rawValue)
        writer.key("expiresDate")
        writer.date(subscription.expiresDate)
        writer.key("gracePeriodExpiresDate")
        writer.date(subscription.gracePeriodExpiresDate)
        writer.key("willRenew")
        writer.bool(subscription.willRenew)
        writer.key("pendingProductId")
        writer.string(subscription.pendingProductId)
        writer.key("originalTransactionId")
        writer.string(subscription.originalTransactionId)
        writer.endObject()
    }

    private static func strings(_ values: [String], _ writer: inout JSONWriter) {
        writer.beginArray()
        for value in values { writer.string(value) }
        writer.endArray()
    }

    private static func amounts(_ values: [String: Decimal], _ writer: inout JSONWriter) {
        writer.beginObject()
        for name in values.keys.sorted() {
            writer.key(name)
            writer.decimal(values[name] ?? 0)
        }
        writer.endObject()
    }
}
