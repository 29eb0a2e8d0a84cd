import Foundation

extension RenewalInfo {
    static let knownKeys: Set<String> = [
        "originalTransactionId", "productId", "autoRenewProductId", "autoRenewStatus", "expirationIntent",
        "isInBillingRetryPeriod", "gracePeriodExpiresDate", "priceIncreaseStatus", "offerType", "offerIdentifier",
        "offerDiscountType", "offerPeriod", "signedDate", "environment", "recentSubscriptionStartDate",
        "renewalDate", "currency", "renewalPrice", "eligibleWinBackOfferIds", "appAccountToken",
        "appTransactionId", "renewalBillingPlanType", "commitmentInfo", "advancedCommerceInfo",
    ]

    /// Decodes Apple's `JWSRenewalInfoDecodedPayload` JSON.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        self.init(
            originalTransactionId: try c.required("originalTransactionId"),
            productId: try c.optional("productId") ?? "",
            autoRenewProductId: try c.optional("autoRenewProductId"),
            autoRenewStatus: try c.optional("autoRenewStatus") ?? .off,
            expirationIntent: try c.optional("expirationIntent"),
            isInBillingRetryPeriod: try c.optional("isInBillingRetryPeriod"),
            gracePeriodExpiresDate: try c.millis("gracePeriodExpiresDate"),
            priceIncreaseStatus: try c.optional("priceIncreaseStatus"),
            offerType: try c.optional("offerType"),
            offerIdentifier: try c.optional("offerIdentifier"),
            offerDiscountType: try c.optional("offerDiscountType"),
            offerPeriod: try c.optional("offerPeriod"),
            signedDate: try c.millis("signedDate"),
            environment: try c.optional("environment"),
            recentSubscriptionStartDate: try c.millis("recentSubscriptionStartDate"),
            renewalDate: try c.millis("renewalDate"),
            currency: try c.optional("currency"),
            renewalPrice: try c.optional("renewalPrice"),
            eligibleWinBackOfferIds: try c.optional("eligibleWinBackOfferIds"),
            appAccountToken: try c.optional("appAccountToken"),
            appTransactionId: try c.optional("appTransactionId"),
            renewalBillingPlanType: try c.optional("renewalBillingPlanType"),
            commitmentInfo: try c.optional("commitmentInfo"),
            advancedCommerceInfo: try c.optional("advancedCommerceInfo"),
            unknownFields: try c.unknown(excluding: Self.knownKeys)
        )
        if try c.optional("autoRenewProductId", as: String.self) == nil { autoRenewProductId = nil }
    }

    /// Encodes as Apple's `JWSRenewalInfoDecodedPayload` JSON; absent fields are left out.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.put(originalTransactionId, "originalTransactionId")
        try c.put(productId, "productId")
        try c.put(autoRenewProductId, "autoRenewProductId")
        try c.put(autoRenewStatus, "autoRenewStatus")
        try c.put(expirationIntent, "expirationIntent")
        try c.put(isInBillingRetryPeriod, "isInBillingRetryPeriod")
        try c.putMillis(gracePeriodExpiresDate, "gracePeriodExpiresDate")
        try c.put(priceIncreaseStatus, "priceIncreaseStatus")
        try c.put(offerType, "offerType")
        try c.put(offerIdentifier, "offerIdentifier")
        try c.put(offerDiscountType, "offerDiscountType")
        try c.put(offerPeriod, "offerPeriod")
        try c.putMillis(signedDate, "signedDate")
        try c.put(environment, "environment")
        try c.putMillis(recentSubscriptionStartDate, "recentSubscriptionStartDate")
        try c.putMillis(renewalDate, "renewalDate")
        try c.put(currency, "currency")
        try c.put(renewalPrice, "renewalPrice")
        try c.put(eligibleWinBackOfferIds, "eligibleWinBackOfferIds")
        try c.put(appAccountToken, "appAccountToken")
        try c.put(appTransactionId, "appTransactionId")
        try c.put(renewalBillingPlanType, "renewalBillingPlanType")
        try c.put(commitmentInfo, "commitmentInfo")
        try c.put(advancedCommerceInfo, "advancedCommerceInfo")
        try c.putUnknown(unknownFields)
    }
}
