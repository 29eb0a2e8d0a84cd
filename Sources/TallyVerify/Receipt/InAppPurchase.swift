import Foundation

/// One in-app purchase record of an app receipt (attribute type 17), with Apple's field numbers.
public struct InAppPurchase: Sendable, Hashable, Codable {
    /// 1701: how many items were bought.
    public var quantity: Int
    /// 1702: the product identifier.
    public var productId: String
    /// 1703: the transaction identifier (`0` in Xcode receipts).
    public var transactionId: String
    /// 1704: the purchase date (for renewals, the renewal date; for restores, the restore date).
    public var purchaseDate: Date
    /// 1705: the original transaction identifier; the same on all renewals.
    public var originalTransactionId: String?
    /// 1706: the original purchase date.
    public var originalPurchaseDate: Date?
    /// 1707: the product type code (observed 3 auto-renewable, 1 consumable; 0 and 2 unconfirmed).
    public var productType: Int?
    /// 1708: when the subscription period expires (auto-renewables).
    public var expiresDate: Date?
    /// 1711: the web order line item id (one purchase event across devices).
    public var webOrderLineItemId: Int64?
    /// 1712: when Apple support refunded it, or the plan was upgraded; nil when the receipt holds an empty string.
    public var cancellationDate: Date?
    /// 1713: true while in a free trial.
    public var isTrialPeriod: Bool?
    /// 1719: true while in an introductory price period.
    public var isInIntroOfferPeriod: Bool?
    /// 1721: the promotional offer identifier redeemed.
    public var offerIdentifier: String?
    /// Record attributes of types not listed above, as read.
    public var unknownAttributes: [ReceiptAttribute]

    /// Creates a record from its fields.
    public init(
        quantity: Int = 1, productId: String, transactionId: String, purchaseDate: Date,
        originalTransactionId: String? = nil, originalPurchaseDate: Date? = nil, productType: Int? = nil,
        expiresDate: Date? = nil, webOrderLineItemId: Int64? = nil, cancellationDate: Date? = nil,
        isTrialPeriod: Bool? = nil, isInIntroOfferPeriod: Bool? = nil, offerIdentifier: String? = nil,
        unknownAttributes: [ReceiptAttribute] = []
    ) {
        self.quantity = quantity
        self.productId = productId
        self.transactionId = transactionId
        self.purchaseDate = purchaseDate
        self.originalTransactionId = originalTransactionId
        self.originalPurchaseDate = originalPurchaseDate
        self.productType = productType
        self.expiresDate = expiresDate
        self.webOrderLineItemId = webOrderLineItemId
        self.cancellationDate = cancellationDate
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.offerIdentifier = offerIdentifier
        self.unknownAttributes = unknownAttributes
    }
}
