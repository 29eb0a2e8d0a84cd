import Foundation


extension StoreTransaction {
    /// Decodes Apple's `JWSTransactionDecodedPayload` JSON: in one pass when it is flat
    /// (``init(flatPayload:)``), else with Foundation's `JSONDecoder`, whose error is thrown.
    public init(payloadJSON bytes: [UInt8]) throws {
        if let transaction = StoreTransaction(flatPayload: bytes) {
            self = transaction
        } else {
            self = try Self.payloadDecoder.decode(StoreTransaction.self, from: Data(bytes))
        }
    }

    /// One decoder for every call (`JSONDecoder` is `Sendable`; its options are never changed).
    private static let payloadDecoder = JSONDecoder()

    /// Decodes Apple's `JWSTransactionDecodedPayload` JSON when every member is a scalar
    /// (`FlatJSONObject`), as the payloads Apple and Xcode sign are, in one pass and without Foundation's
    /// `JSONDecoder`; nil for any other document (nested values, escapes, fractions, a repeated key, a
    /// required field missing or of the wrong type). The value is the one `init(from:)` decodes from the
    /// same bytes; callers fall back to `JSONDecoder` on nil, so it alone says why a document is refused.
    public init?(flatPayload bytes: [UInt8]) {
        var fields = FlatTransactionFields()
        let read = bytes.withUnsafeBufferPointer { buffer in
            FlatJSONObject.read(buffer) { key, value in fields.set(key, value) }
        }
        guard read, let transaction = fields.transaction() else { return nil }
        self = transaction
    }
}

/// The members of a flat transaction payload as they are read; see ``StoreTransaction/init(flatPayload:)``.
private struct FlatTransactionFields {
    private typealias Field = StoreTransaction.PayloadKey

    private var seen: UInt64 = 0
    private var strings = [String?](repeating: nil, count: Field.allCases.count)
    private var integers = [Int64?](repeating: nil, count: Field.allCases.count)
    private var isUpgraded: Bool?
    private var unknown: [String: JSONValue] = [:]

    /// Takes one member; false when the document must go to `JSONDecoder` (a repeated key, a value of
    /// another type than the field's, a non-null value for a field that holds any JSON).
    mutating func set(_ key: String, _ value: FlatJSONObject.Scalar) -> Bool {
        guard let field = Field.byName[key] else {
            guard unknown[key] == nil else { return false }
            unknown[key] = switch value {
            case .string(let text): .string(text)
            case .integer(let number): .integer(number)
            case .bool(let flag): .bool(flag)
            case .null: .null
            }
            return true
        }
        let bit: UInt64 = 1 << UInt64(field.rawValue)
        guard seen & bit == 0 else { return false }
        seen |= bit
        switch (field, value) {
        case (_, .null): return true  // absent, as `decodeIfPresent` reads `null`
        case (.commitmentInfo, _), (.advancedCommerceInfo, _): return false
        case (.isUpgraded, .bool(let flag)): isUpgraded = flag
        case (.isUpgraded, _): return false
        case (_, .string(let text)) where Self.integerFields & bit == 0: strings[field.rawValue] = text
        // Held only when it fits `Int` as well (always, on 64-bit platforms), so every integer field reads as one.
        case (_, .integer(let number)) where Self.integerFields & bit != 0 && Int(exactly: number) != nil:
            integers[field.rawValue] = number
        default: return false
        }
        return true
    }

    /// The fields held as integers (dates in milliseconds, counts and integer-backed values), one bit each.
    private static let integerFields: UInt64 = [
        Field.purchaseDate, .originalPurchaseDate, .expiresDate, .quantity, .signedDate, .revocationReason,
        .revocationDate, .offerType, .price, .revocationPercentage,
    ].reduce(0) { $0 | 1 << UInt64($1.rawValue) }

    private func string(_ field: Field) -> String? { strings[field.rawValue] }

    private func date(_ field: Field) -> Date? { integers[field.rawValue].map(Date.init(millisecondsSince1970:)) }

    private func int(_ field: Field) -> Int? { integers[field.rawValue].map { Int($0) } }

    /// The transaction, or nil when a required field is missing (then `JSONDecoder` names it).
    func transaction() -> StoreTransaction? {
        guard let transactionId = string(.transactionId), let productId = string(.productId),
            let type = string(.type), let purchaseDate = date(.purchaseDate)
        else { return nil }
        return StoreTransaction(
            transactionId: transactionId,
            originalTransactionId: string(.originalTransactionId),
            webOrderLineItemId: string(.webOrderLineItemId),
            bundleId: string(.bundleId),
            productId: productId,
            subscriptionGroupIdentifier: string(.subscriptionGroupIdentifier),
            purchaseDate: purchaseDate,
            originalPurchaseDate: date(.originalPurchaseDate),
            expiresDate: date(.expiresDate),
            quantity: int(.quantity) ?? 1,
            type: ProductType(rawValue: type),
            appAccountToken: string(.appAccountToken),
            inAppOwnershipType: string(.inAppOwnershipType).map(OwnershipType.init(rawValue:)),
            signedDate: date(.signedDate),
            revocationReason: int(.revocationReason).map(RevocationReason.init(rawValue:)),
            revocationDate: date(.revocationDate),
            isUpgraded: isUpgraded,
            offerType: int(.offerType).map(OfferType.init(rawValue:)),
            offerIdentifier: string(.offerIdentifier),
            environment: string(.environment).map(StoreEnvironment.init(rawValue:)),
            storefront: string(.storefront),
            storefrontId: string(.storefrontId),
            transactionReason: string(.transactionReason).map(TransactionReason.init(rawValue:)),
            currency: string(.currency),
            price: integers[Field.price.rawValue],
            offerDiscountType: string(.offerDiscountType).map(OfferDiscountType.init(rawValue:)),
            appTransactionId: string(.appTransactionId),
            offerPeriod: string(.offerPeriod),
            revocationType: string(.revocationType).map(RevocationType.init(rawValue:)),
            revocationPercentage: int(.revocationPercentage),
            billingPlanType: string(.billingPlanType).map(BillingPlanType.init(rawValue:)),
            commitmentInfo: nil,
            advancedCommerceInfo: nil,
            unknownFields: unknown)
    }
}
