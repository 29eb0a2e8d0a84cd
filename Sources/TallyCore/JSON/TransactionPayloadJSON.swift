import Foundation

/// A transaction's JSON written directly (no `JSONEncoder`), by the rules of TallyCore's `StoreTransaction.encode(to:)`:
/// absent fields left out, dates as whole milliseconds since 1970, keys in sorted order (as `.sortedKeys` writes
/// them). It is the stored `payload` of every store (`JSONDecoder` reads it back to the same value as it reads
/// `JSONEncoder`'s output) and the `payload` of `tally verify --lines`.
///
/// Fields kept as raw JSON (`StoreTransaction.unknownFields`, `commitmentInfo`, `advancedCommerceInfo`)
/// have no direct form here: for a transaction carrying any, ``isDirect(_:)`` is false, ``bytes(_:)`` is nil and
/// the caller uses TallyCore's `Codable` conformance.
public enum TransactionPayloadJSON {
    /// The JSON object of `transaction`, or nil when it carries raw JSON fields.
    public static func bytes(_ transaction: StoreTransaction) -> [UInt8]? {
        guard isDirect(transaction) else { return nil }
        var writer = JSONWriter()
        writer.beginObject()
        writeFields(of: transaction, into: &writer)
        writer.endObject()
        return writer.bytes
    }

    /// The members of `transaction`'s object, in sorted key order, into an object `writer` has begun. Only for a
    /// transaction that ``isDirect(_:)``.
    public static func writeFields(of t: StoreTransaction, into writer: inout JSONWriter) {
        writer.put("appAccountToken", t.appAccountToken)
        writer.put("appTransactionId", t.appTransactionId)
        writer.put("billingPlanType", t.billingPlanType?.rawValue)
        writer.put("bundleId", t.bundleId)
        writer.put("currency", t.currency)
        writer.put("environment", t.environment?.rawValue)
        writer.putMilliseconds("expiresDate", t.expiresDate)
        writer.put("inAppOwnershipType", t.inAppOwnershipType?.rawValue)
        if let isUpgraded = t.isUpgraded { writer.field("isUpgraded", isUpgraded) }
        writer.put("offerDiscountType", t.offerDiscountType?.rawValue)
        writer.put("offerIdentifier", t.offerIdentifier)
        writer.put("offerPeriod", t.offerPeriod)
        writer.put("offerType", t.offerType.map { Int64($0.rawValue) })
        writer.putMilliseconds("originalPurchaseDate", t.originalPurchaseDate)
        writer.put("originalTransactionId", t.originalTransactionId)
        writer.put("price", t.price)
        writer.put("productId", t.productId)
        writer.putMilliseconds("purchaseDate", t.purchaseDate)
        writer.put("quantity", Int64(t.quantity))
        writer.putMilliseconds("revocationDate", t.revocationDate)
        writer.put("revocationPercentage", t.revocationPercentage.map { Int64($0) })
        writer.put("revocationReason", t.revocationReason.map { Int64($0.rawValue) })
        writer.put("revocationType", t.revocationType?.rawValue)
        writer.putMilliseconds("signedDate", t.signedDate)
        writer.put("storefront", t.storefront)
        writer.put("storefrontId", t.storefrontId)
        writer.put("subscriptionGroupIdentifier", t.subscriptionGroupIdentifier)
        writer.put("transactionId", t.transactionId)
        writer.put("transactionReason", t.transactionReason?.rawValue)
        writer.put("type", t.type.rawValue)
        writer.put("webOrderLineItemId", t.webOrderLineItemId)
    }

    /// `transaction` as it reads back from its stored payload (every date at whole milliseconds, as
    /// `Date(millisecondsSince1970:)` makes it), or nil when it carries raw JSON fields.
    public static func normalized(_ transaction: StoreTransaction) -> StoreTransaction? {
        guard isDirect(transaction) else { return nil }
        var t = transaction
        t.purchaseDate = whole(t.purchaseDate)
        t.originalPurchaseDate = t.originalPurchaseDate.map(whole)
        t.expiresDate = t.expiresDate.map(whole)
        t.signedDate = t.signedDate.map(whole)
        t.revocationDate = t.revocationDate.map(whole)
        return t
    }

    /// Whether the transaction has no fields kept as raw JSON, so it can be written directly.
    public static func isDirect(_ transaction: StoreTransaction) -> Bool {
        transaction.unknownFields.isEmpty && transaction.commitmentInfo == nil
            && transaction.advancedCommerceInfo == nil
    }

    private static func whole(_ date: Date) -> Date {
        Date(millisecondsSince1970: date.millisecondsSince1970)
    }
}

private extension JSONWriter {
    /// `"key":"value"`, nothing when nil.
    mutating func put(_ key: String, _ value: String?) {
        guard let value else { return }
        field(key, value)
    }

    /// `"key":number`, nothing when nil.
    mutating func put(_ key: String, _ value: Int64?) {
        guard let value else { return }
        self.key(key)
        integer(value)
    }

    /// `"key":milliseconds since 1970`, nothing when nil.
    mutating func putMilliseconds(_ key: String, _ value: Date?) {
        guard let value else { return }
        put(key, value.millisecondsSince1970)
    }
}
