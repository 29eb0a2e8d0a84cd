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
            writeNets(&writer, balances: state.balances, debts: state.debts)
        }
    }

    /// The offset of the first occurrence of `needle` in `haystack` (Collection's `firstRange(of:)` needs
    /// macOS 13; the package's floor is macOS 12).
    static func firstOffset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }

    /// `body` (an object ``encode(appUserId:state:)`` wrote) with other balances and debts: everything before
    /// them — the part that depends on transactions and renewal info, not on the nets — kept byte for byte, so a
    /// write that moves only the nets (a spend) restates a kept state without computing it. Nil when `body` has
    /// no `balances` member (not this encoding).
    ///
    /// The nets are the last two members. The first `,"balances":` in the body is the top-level member: inside a
    /// JSON string every `"` is escaped, so `,"` there is structure, and no nested object of this encoding has a
    /// member of that name.
    static func replacingNets(in body: [UInt8], balances: [String: Decimal], debts: [String: Decimal]) -> [UInt8]? {
        let marker = Array(#","balances":"#.utf8)
        guard let start = Self.firstOffset(of: marker, in: body) else { return nil }
        // `{"balances":…,"debts":…}` from the same writer, joined to the facts in place of its `{`.
        let nets = JSONWriter.object { writer in writeNets(&writer, balances: balances, debts: debts) }
        var restated = Array(body[..<start])
        restated.reserveCapacity(start + nets.count)
        restated.append(UInt8(ascii: ","))
        restated.append(contentsOf: nets.dropFirst())
        return restated
    }

    private static func writeNets(_ writer: inout JSONWriter, balances: [String: Decimal], debts: [String: Decimal]) {
        writer.field("balances", balances)
        writer.field("debts", debts)
    }
}
