import Foundation
import TallyCore

/// The `customer` object of docs/server.md, written field by field in the documented order.
enum CustomerJSON {
    /// The encoding's version, part of every kept state's fingerprint: change it with the encoding, so states a
    /// store kept from an older encoding are computed again.
    static let format = "customer/1"

    /// The encoded object for `appUserId` in `state`.
    static func encode(appUserId: String, state: CustomerState) -> [UInt8] {
        JSONWriter.object { writer in
            writer.field("appUserId", appUserId)
            writer.objects("entitlements", state.entitlements) { writer, entitlement in
                writer.field("feature", entitlement.feature)
                writer.field("productIds", entitlement.productIds)
                writer.field("expiresDate", entitlement.expiresDate)
            }
            writer.field("nonConsumables", state.nonConsumables)
            writer.objects("subscriptions", state.subscriptions) { writer, subscription in
                writer.field("groupId", subscription.groupId)
                writer.field("productId", subscription.productId)
                writer.field("status", subscription.status.rawValue)
                writer.field("expiresDate", subscription.expiresDate)
                writer.field("gracePeriodExpiresDate", subscription.gracePeriodExpiresDate)
                writer.field("willRenew", subscription.willRenew)
                writer.field("pendingProductId", subscription.pendingProductId)
                writer.field("originalTransactionId", subscription.originalTransactionId)
            }
            writer.objects("nonRenewing", state.nonRenewing) { writer, item in
                writer.field("productId", item.productId)
                writer.field("expiresDate", item.expiresDate)
                writer.field("isActive", item.isActive)
            }
            writer.field("balances", state.balances)
            writer.field("debts", state.debts)
        }
    }
}
