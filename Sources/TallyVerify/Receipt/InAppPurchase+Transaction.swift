import TallyCore

extension InAppPurchase {
    /// The product type this record stands for: from 1707 when present (0 non-consumable — unconfirmed,
    /// 1 consumable, 2 non-renewing — unconfirmed, 3 auto-renewable; other codes are kept as
    /// `Receipt product type N`), otherwise auto-renewable when 1708 (expiry) is set, else non-consumable.
    public var inferredProductType: ProductType {
        switch productType {
        case 0: .nonConsumable
        case 1: .consumable
        case 2: .nonRenewing
        case 3: .autoRenewable
        case let code?: ProductType(rawValue: "Receipt product type \(code)")
        case nil: expiresDate == nil ? .nonConsumable : .autoRenewable
        }
    }

    /// This record as a Tally transaction, so a server can import receipt purchases.
    ///
    /// The ASN.1 receipt has no ownership type, so `inAppOwnershipType` stays nil.
    /// The cancellation date (1712) becomes `revocationDate`; a trial or introductory period flag
    /// becomes `offerType` `.introductory`; the offer identifier (1721) is kept.
    public func transaction(bundleId: String, environment: StoreEnvironment? = nil) -> StoreTransaction {
        let introductory = isTrialPeriod == true || isInIntroOfferPeriod == true
        return StoreTransaction(
            transactionId: transactionId,
            originalTransactionId: originalTransactionId,
            webOrderLineItemId: webOrderLineItemId.map(String.init),
            bundleId: bundleId,
            productId: productId,
            purchaseDate: purchaseDate,
            originalPurchaseDate: originalPurchaseDate,
            expiresDate: expiresDate,
            quantity: quantity,
            type: inferredProductType,
            inAppOwnershipType: nil,
            revocationDate: cancellationDate,
            offerType: introductory ? .introductory : nil,
            offerIdentifier: offerIdentifier,
            environment: environment
        )
    }
}
