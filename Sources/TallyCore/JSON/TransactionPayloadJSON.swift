import Foundation

/// A transaction's JSON written directly (no `JSONEncoder`), by the rules of TallyCore's `StoreTransaction.encode(to:)`:
/// absent fields left out, dates as whole milliseconds since 1970, keys in sorted order (as `.sortedKeys` writes
/// them). It is the stored `payload` of every store (`JSONDecoder` reads it back to the same value as it reads
/// `JSONEncoder`'s output) and the `payload` of `tally verify --lines`.
///
/// Unknown fields whose values are scalars (a string, a whole number, a boolean or `null`), as a device's
/// `deviceVerification` and `deviceVerificationNonce` are, are written in their sorted place among the others.
/// Other fields kept as raw JSON (a nested unknown value, `commitmentInfo`, `advancedCommerceInfo`) have no direct
/// form here: for a transaction carrying any, ``isDirect(_:)`` is false, ``bytes(_:)`` is nil and the caller uses
/// TallyCore's `Codable` conformance.
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
        var fields = SortedFields(writer: writer, unknown: t.unknownFields)
        writer = JSONWriter()  // `fields` holds the only reference to the buffer: no copy on write.
        fields.put("appAccountToken", t.appAccountToken)
        fields.put("appTransactionId", t.appTransactionId)
        fields.put("billingPlanType", t.billingPlanType?.rawValue)
        fields.put("bundleId", t.bundleId)
        fields.put("currency", t.currency)
        fields.put("environment", t.environment?.rawValue)
        fields.putMilliseconds("expiresDate", t.expiresDate)
        fields.put("inAppOwnershipType", t.inAppOwnershipType?.rawValue)
        fields.put("isUpgraded", t.isUpgraded)
        fields.put("offerDiscountType", t.offerDiscountType?.rawValue)
        fields.put("offerIdentifier", t.offerIdentifier)
        fields.put("offerPeriod", t.offerPeriod)
        fields.put("offerType", t.offerType.map { Int64($0.rawValue) })
        fields.putMilliseconds("originalPurchaseDate", t.originalPurchaseDate)
        fields.put("originalTransactionId", t.originalTransactionId)
        fields.put("price", t.price)
        fields.put("productId", t.productId)
        fields.putMilliseconds("purchaseDate", t.purchaseDate)
        fields.put("quantity", Int64(t.quantity))
        fields.putMilliseconds("revocationDate", t.revocationDate)
        fields.put("revocationPercentage", t.revocationPercentage.map { Int64($0) })
        fields.put("revocationReason", t.revocationReason.map { Int64($0.rawValue) })
        fields.put("revocationType", t.revocationType?.rawValue)
        fields.putMilliseconds("signedDate", t.signedDate)
        fields.put("storefront", t.storefront)
        fields.put("storefrontId", t.storefrontId)
        fields.put("subscriptionGroupIdentifier", t.subscriptionGroupIdentifier)
        fields.put("transactionId", t.transactionId)
        fields.put("transactionReason", t.transactionReason?.rawValue)
        fields.put("type", t.type.rawValue)
        fields.put("webOrderLineItemId", t.webOrderLineItemId)
        writer = fields.finish()
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
        transaction.commitmentInfo == nil && transaction.advancedCommerceInfo == nil
            && transaction.unknownFields.allSatisfy { key, value in value.isScalar && !knownKeys.contains(key) }
    }

    /// The keys ``writeFields(of:into:)`` writes (an unknown field by one of these names is left to the encoder).
    static let knownKeys: Set<String> = [
        "appAccountToken", "appTransactionId", "billingPlanType", "bundleId", "currency", "environment", "expiresDate",
        "inAppOwnershipType", "isUpgraded", "offerDiscountType", "offerIdentifier", "offerPeriod", "offerType",
        "originalPurchaseDate", "originalTransactionId", "price", "productId", "purchaseDate", "quantity",
        "revocationDate", "revocationPercentage", "revocationReason", "revocationType", "signedDate", "storefront",
        "storefrontId", "subscriptionGroupIdentifier", "transactionId", "transactionReason", "type",
        "webOrderLineItemId", "commitmentInfo", "advancedCommerceInfo",
    ]

    private static func whole(_ date: Date) -> Date {
        Date(millisecondsSince1970: date.millisecondsSince1970)
    }
}

/// The members of one transaction object as they are written: each known field in its place, and before it every
/// unknown (scalar) field whose key sorts before it, by UTF-8 bytes.
private struct SortedFields {
    var writer: JSONWriter
    /// Unknown fields not yet written, in sorted order.
    private var unknown: [(key: String, value: JSONValue)]
    private var next = 0

    init(writer: JSONWriter, unknown: [String: JSONValue]) {
        self.writer = writer
        self.unknown = unknown.isEmpty ? [] : unknown.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// Writes the unknown fields that sort before `key`.
    private mutating func flush(before key: String) {
        while next < unknown.count, unknown[next].key.utf8.lexicographicallyPrecedes(key.utf8) {
            writeUnknown(unknown[next])
            next += 1
        }
    }

    private mutating func writeUnknown(_ field: (key: String, value: JSONValue)) {
        writer.key(field.key)
        switch field.value {
        case .string(let text): writer.string(text)
        case .integer(let number): writer.integer(number)
        case .bool(let flag): writer.bool(flag)
        default: writer.null()  // only scalars reach here (``TransactionPayloadJSON/isDirect(_:)``)
        }
    }

    /// `"key":` in its sorted place (after the unknown fields sorting before it), then the value `write` writes.
    private mutating func place(_ key: String, _ write: (inout JSONWriter) -> Void) {
        if next < unknown.count { flush(before: key) }
        writer.key(key)
        write(&writer)
    }

    /// `"key":"value"`, nothing when nil.
    mutating func put(_ key: String, _ value: String?) {
        if let value { place(key) { $0.string(value) } }
    }

    /// `"key":number`, nothing when nil.
    mutating func put(_ key: String, _ value: Int64?) {
        if let value { place(key) { $0.integer(value) } }
    }

    /// `"key":true|false`, nothing when nil.
    mutating func put(_ key: String, _ value: Bool?) {
        if let value { place(key) { $0.bool(value) } }
    }

    /// `"key":milliseconds since 1970`, nothing when nil.
    mutating func putMilliseconds(_ key: String, _ value: Date?) {
        guard let value else { return }
        put(key, value.millisecondsSince1970)
    }

    /// The writer, with the unknown fields that sort after every known one.
    mutating func finish() -> JSONWriter {
        while next < unknown.count {
            writeUnknown(unknown[next])
            next += 1
        }
        return writer
    }
}

private extension JSONValue {
    /// A string, whole number, boolean or `null`.
    var isScalar: Bool {
        switch self {
        case .string, .integer, .bool, .null: true
        case .number, .array, .object: false
        }
    }
}
