import Foundation

/// One transaction bought with an offer, in the dashboard's offers list (``DashboardStore/offerRedemptions(before:limit:)``).
public struct DashboardOfferRedemption: Sendable, Hashable {
    /// The owner now.
    public var appUserId: String
    /// Apple's fields.
    public var transactionId: String, originalTransactionId: String, productId: String
    /// Apple's `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    public var offerType: Int
    /// Apple's `offerIdentifier` (none for most introductory offers).
    public var offerIdentifier: String?
    /// Apple's `offerDiscountType` (`FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`, …).
    public var offerDiscountType: String?
    /// `price` in milliunits of `currency`.
    public var price: Int64?
    /// ISO 4217.
    public var currency: String?
    /// When it was bought.
    public var purchaseDate: Date
    /// Apple's `environment` (`Production`, `Sandbox`, …).
    public var environment: String?
    /// Its place in the list: the stored purchase milliseconds and the transaction id.
    public var position: DashboardListPosition

    /// Creates a row.
    public init(appUserId: String, transactionId: String, originalTransactionId: String, productId: String,
                offerType: Int, offerIdentifier: String?, offerDiscountType: String?, price: Int64?, currency: String?,
                purchaseDate: Date, environment: String?, position: DashboardListPosition) {
        self.appUserId = appUserId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.offerDiscountType = offerDiscountType
        self.price = price
        self.currency = currency
        self.purchaseDate = purchaseDate
        self.environment = environment
        self.position = position
    }
}

/// How many stored transactions were bought with one offer (its type and identifier).
public struct DashboardOfferTotal: Sendable, Hashable {
    /// Apple's `offerType`.
    public var offerType: Int
    /// Apple's `offerIdentifier`; nil for the offers without one.
    public var offerIdentifier: String?
    /// The transactions.
    public var count: Int

    /// Creates a total.
    public init(offerType: Int, offerIdentifier: String?, count: Int) {
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.count = count
    }

    /// The dashboard's order: by type, then the offers without an identifier, then identifiers as bytes.
    public static func ordered(_ totals: [DashboardOfferTotal]) -> [DashboardOfferTotal] {
        totals.sorted { a, b in
            if a.offerType != b.offerType { return a.offerType < b.offerType }
            guard let left = a.offerIdentifier else { return b.offerIdentifier != nil }
            guard let right = b.offerIdentifier else { return false }
            return left.utf8.lexicographicallyPrecedes(right.utf8)
        }
    }
}

/// One page of offer redemptions and every offer's total, read in one snapshot.
public struct DashboardOffers: Sendable, Hashable {
    /// Newest purchase first (ties: the greater transaction id, as bytes).
    public var redemptions: [DashboardOfferRedemption]
    /// Every offer redeemed, in any order (the API orders them).
    public var totals: [DashboardOfferTotal]

    /// Creates a page.
    public init(redemptions: [DashboardOfferRedemption], totals: [DashboardOfferTotal]) {
        self.redemptions = redemptions
        self.totals = totals
    }
}
