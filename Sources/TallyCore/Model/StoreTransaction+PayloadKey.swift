extension StoreTransaction {
    /// The members of Apple's `JWSTransactionDecodedPayload` that ``StoreTransaction`` models, each named as its
    /// JSON key; every other member is kept in ``StoreTransaction/unknownFields``.
    enum PayloadKey: Int, CaseIterable {
        case transactionId, originalTransactionId, webOrderLineItemId, bundleId, productId
        case subscriptionGroupIdentifier, purchaseDate, originalPurchaseDate, expiresDate, quantity, type
        case appAccountToken, inAppOwnershipType, signedDate, revocationReason, revocationDate, isUpgraded
        case offerType, offerIdentifier, environment, storefront, storefrontId, transactionReason
        case currency, price, offerDiscountType, appTransactionId, offerPeriod, revocationType
        case revocationPercentage, billingPlanType, commitmentInfo, advancedCommerceInfo

        /// Each member by its JSON key.
        static let byName: [String: PayloadKey] = Dictionary(uniqueKeysWithValues: allCases.map { ("\($0)", $0) })
    }
}
