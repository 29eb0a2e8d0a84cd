import Foundation
import TallyCore
import TallyServer
import TallyVerify

extension VerifyCommand {
    /// A verified transaction's answer written straight into bytes: the same JSON value ``render(_:encoder:)``
    /// writes through `JSONEncoder` (keys sorted, dates as milliseconds, absent fields left out), at a fraction
    /// of its cost, for `--lines`. nil for every other answer, and for a transaction carrying fields kept as
    /// raw JSON (unknown fields, `commitmentInfo`, `advancedCommerceInfo`): those go through `JSONEncoder`.
    static func directJSON(_ answer: Answer) -> [UInt8]? {
        guard case .valid(.transaction(let t)) = answer, t.unknownFields.isEmpty, t.commitmentInfo == nil,
            t.advancedCommerceInfo == nil
        else { return nil }
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("kind")
        writer.string(SignedPayloadKind.transaction.rawValue)
        writer.key("payload")
        writer.beginObject()
        // In sorted key order, as `.sortedKeys` writes them.
        writer.optional("appAccountToken", t.appAccountToken)
        writer.optional("appTransactionId", t.appTransactionId)
        writer.optional("billingPlanType", t.billingPlanType?.rawValue)
        writer.optional("bundleId", t.bundleId)
        writer.optional("currency", t.currency)
        writer.optional("environment", t.environment?.rawValue)
        writer.optionalMilliseconds("expiresDate", t.expiresDate)
        writer.optional("inAppOwnershipType", t.inAppOwnershipType?.rawValue)
        if let isUpgraded = t.isUpgraded { writer.key("isUpgraded"); writer.bool(isUpgraded) }
        writer.optional("offerDiscountType", t.offerDiscountType?.rawValue)
        writer.optional("offerIdentifier", t.offerIdentifier)
        writer.optional("offerPeriod", t.offerPeriod)
        writer.optional("offerType", t.offerType.map { Int64($0.rawValue) })
        writer.optionalMilliseconds("originalPurchaseDate", t.originalPurchaseDate)
        writer.optional("originalTransactionId", t.originalTransactionId)
        writer.optional("price", t.price)
        writer.optional("productId", t.productId)
        writer.optionalMilliseconds("purchaseDate", t.purchaseDate)
        writer.optional("quantity", Int64(t.quantity))
        writer.optionalMilliseconds("revocationDate", t.revocationDate)
        writer.optional("revocationPercentage", t.revocationPercentage.map(Int64.init))
        writer.optional("revocationReason", t.revocationReason.map { Int64($0.rawValue) })
        writer.optional("revocationType", t.revocationType?.rawValue)
        writer.optionalMilliseconds("signedDate", t.signedDate)
        writer.optional("storefront", t.storefront)
        writer.optional("storefrontId", t.storefrontId)
        writer.optional("subscriptionGroupIdentifier", t.subscriptionGroupIdentifier)
        writer.optional("transactionId", t.transactionId)
        writer.optional("transactionReason", t.transactionReason?.rawValue)
        writer.optional("type", t.type.rawValue)
        writer.optional("webOrderLineItemId", t.webOrderLineItemId)
        writer.endObject()
        writer.key("valid")
        writer.bool(true)
        writer.endObject()
        return writer.bytes
    }
}

extension JSONWriter {
    /// `"key":"value"` when `value` is present.
    fileprivate mutating func optional(_ key: String, _ value: String?) {
        guard let value else { return }
        self.key(key)
        string(value)
    }

    /// `"key":value` when `value` is present.
    fileprivate mutating func optional(_ key: String, _ value: Int64?) {
        guard let value else { return }
        self.key(key)
        integer(value)
    }

    /// `"key":milliseconds` when `date` is present (TallyCore's `millisecondsSince1970`, as `Transaction`
    /// encodes its dates).
    fileprivate mutating func optionalMilliseconds(_ key: String, _ date: Date?) {
        optional(key, date?.millisecondsSince1970)
    }
}
