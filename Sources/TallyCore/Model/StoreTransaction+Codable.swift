import Foundation


extension StoreTransaction {
    static let knownKeys = Set(PayloadKey.byName.keys)

    /// Decodes Apple's `JWSTransactionDecodedPayload` JSON.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        guard let purchaseDate = try c.millis("purchaseDate") else {
            throw DecodingError.keyNotFound(
                AnyCodingKey("purchaseDate"),
                .init(codingPath: c.codingPath, debugDescription: "a transaction needs purchaseDate"))
        }
        let transactionId: String = try c.required("transactionId")
        self.init(
            transactionId: transactionId,
            originalTransactionId: try c.optional("originalTransactionId"),
            webOrderLineItemId: try c.optional("webOrderLineItemId"),
            bundleId: try c.optional("bundleId"),
            productId: try c.required("productId"),
            subscriptionGroupIdentifier: try c.optional("subscriptionGroupIdentifier"),
            purchaseDate: purchaseDate,
            originalPurchaseDate: try c.millis("originalPurchaseDate"),
            expiresDate: try c.millis("expiresDate"),
            quantity: try c.optional("quantity") ?? 1,
            type: try c.required("type"),
            appAccountToken: try c.optional("appAccountToken"),
            inAppOwnershipType: try c.optional("inAppOwnershipType"),
            signedDate: try c.millis("signedDate"),
            revocationReason: try c.optional("revocationReason"),
            revocationDate: try c.millis("revocationDate"),
            isUpgraded: try c.optional("isUpgraded"),
            offerType: try c.optional("offerType"),
            offerIdentifier: try c.optional("offerIdentifier"),
            environment: try c.optional("environment"),
            storefront: try c.optional("storefront"),
            storefrontId: try c.optional("storefrontId"),
            transactionReason: try c.optional("transactionReason"),
            currency: try c.optional("currency"),
            price: try c.optional("price"),
            offerDiscountType: try c.optional("offerDiscountType"),
            appTransactionId: try c.optional("appTransactionId"),
            offerPeriod: try c.optional("offerPeriod"),
            revocationType: try c.optional("revocationType"),
            revocationPercentage: try c.optional("revocationPercentage"),
            billingPlanType: try c.optional("billingPlanType"),
            commitmentInfo: try c.optional("commitmentInfo"),
            advancedCommerceInfo: try c.optional("advancedCommerceInfo"),
            unknownFields: try c.unknown(excluding: Self.knownKeys)
        )
        if try c.optional("originalTransactionId", as: String.self) == nil {
            originalTransactionId = transactionId
        }
    }

    /// Encodes as Apple's `JWSTransactionDecodedPayload` JSON; absent fields are left out.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.put(transactionId, "transactionId")
        try c.put(originalTransactionId, "originalTransactionId")
        try c.put(webOrderLineItemId, "webOrderLineItemId")
        try c.put(bundleId, "bundleId")
        try c.put(productId, "productId")
        try c.put(subscriptionGroupIdentifier, "subscriptionGroupIdentifier")
        try c.putMillis(purchaseDate, "purchaseDate")
        try c.putMillis(originalPurchaseDate, "originalPurchaseDate")
        try c.putMillis(expiresDate, "expiresDate")
        try c.put(quantity, "quantity")
        try c.put(type, "type")
        try c.put(appAccountToken, "appAccountToken")
        try c.put(inAppOwnershipType, "inAppOwnershipType")
        try c.putMillis(signedDate, "signedDate")
        try c.put(revocationReason, "revocationReason")
        try c.putMillis(revocationDate, "revocationDate")
        try c.put(isUpgraded, "isUpgraded")
        try c.put(offerType, "offerType")
        try c.put(offerIdentifier, "offerIdentifier")
        try c.put(environment, "environment")
        try c.put(storefront, "storefront")
        try c.put(storefrontId, "storefrontId")
        try c.put(transactionReason, "transactionReason")
        try c.put(currency, "currency")
        try c.put(price, "price")
        try c.put(offerDiscountType, "offerDiscountType")
        try c.put(appTransactionId, "appTransactionId")
        try c.put(offerPeriod, "offerPeriod")
        try c.put(revocationType, "revocationType")
        try c.put(revocationPercentage, "revocationPercentage")
        try c.put(billingPlanType, "billingPlanType")
        try c.put(commitmentInfo, "commitmentInfo")
        try c.put(advancedCommerceInfo, "advancedCommerceInfo")
        try c.putUnknown(unknownFields)
    }
}
