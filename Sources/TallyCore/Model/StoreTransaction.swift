import Foundation


/// One App Store transaction, with the field names and meanings of Apple's
/// `JWSTransactionDecodedPayload`: a purchase, a renewal, a restore, a refund's updated record.
///
/// Dates decode from and encode to Apple's milliseconds since 1970; fields Tally does not model
/// are kept in ``unknownFields`` and written back unchanged.
public struct StoreTransaction: Sendable, Hashable, Codable {
    /// Unique per purchase, restore or renewal.
    public var transactionId: String
    /// The original purchase this transaction belongs to; the same on every renewal.
    public var originalTransactionId: String
    /// One subscription purchase event across devices (auto-renewables).
    public var webOrderLineItemId: String?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The product bought.
    public var productId: String
    /// The subscription group of an auto-renewable.
    public var subscriptionGroupIdentifier: String?
    /// When the App Store charged the account.
    public var purchaseDate: Date
    /// The purchase date of the original transaction.
    public var originalPurchaseDate: Date?
    /// When this subscription period expires or renews (auto-renewables).
    public var expiresDate: Date?
    /// How many consumables were bought; 1 for other products.
    public var quantity: Int
    /// The product type.
    public var type: ProductType
    /// The UUID the app linked to the purchase.
    public var appAccountToken: String?
    /// Bought, or shared through Family Sharing.
    public var inAppOwnershipType: OwnershipType?
    /// When the App Store signed this record.
    public var signedDate: Date?
    /// Why the transaction was refunded or revoked.
    public var revocationReason: RevocationReason?
    /// When the transaction was refunded or revoked.
    public var revocationDate: Date?
    /// True when the customer upgraded to another subscription of the group.
    public var isUpgraded: Bool?
    /// The kind of offer used.
    public var offerType: OfferType?
    /// The offer code reference name or promotional offer id.
    public var offerIdentifier: String?
    /// The environment that signed the record.
    public var environment: StoreEnvironment?
    /// ISO 3166-1 alpha-3 country of the storefront.
    public var storefront: String?
    /// Apple's numeric storefront id.
    public var storefrontId: String?
    /// Purchase or renewal.
    public var transactionReason: TransactionReason?
    /// ISO 4217 currency of ``price``.
    public var currency: String?
    /// The price paid in milliunits of ``currency`` (10990 = 10.99).
    public var price: Int64?
    /// How the offer was paid.
    public var offerDiscountType: OfferDiscountType?
    /// The app download transaction id.
    public var appTransactionId: String?
    /// ISO 8601 duration of the offer.
    public var offerPeriod: String?
    /// How the transaction was revoked.
    public var revocationType: RevocationType?
    /// Share refunded, in milliunits (100000 = 100 %).
    public var revocationPercentage: Int?
    /// The subscription's billing plan.
    public var billingPlanType: BillingPlanType?
    /// Commitment details of a monthly-with-commitment plan, as Apple writes them.
    public var commitmentInfo: JSONValue?
    /// Advanced Commerce details, as Apple writes them.
    public var advancedCommerceInfo: JSONValue?
    /// Fields Tally does not model, kept as read.
    public var unknownFields: [String: JSONValue]

    /// Creates a transaction; only the identity, product, type and purchase date are required.
    public init(
        transactionId: String, originalTransactionId: String? = nil, webOrderLineItemId: String? = nil,
        bundleId: String? = nil, productId: String, subscriptionGroupIdentifier: String? = nil,
        purchaseDate: Date, originalPurchaseDate: Date? = nil, expiresDate: Date? = nil, quantity: Int = 1,
        type: ProductType, appAccountToken: String? = nil, inAppOwnershipType: OwnershipType? = .purchased,
        signedDate: Date? = nil, revocationReason: RevocationReason? = nil, revocationDate: Date? = nil,
        isUpgraded: Bool? = nil, offerType: OfferType? = nil, offerIdentifier: String? = nil,
        environment: StoreEnvironment? = nil, storefront: String? = nil, storefrontId: String? = nil,
        transactionReason: TransactionReason? = nil, currency: String? = nil, price: Int64? = nil,
        offerDiscountType: OfferDiscountType? = nil, appTransactionId: String? = nil, offerPeriod: String? = nil,
        revocationType: RevocationType? = nil, revocationPercentage: Int? = nil,
        billingPlanType: BillingPlanType? = nil, commitmentInfo: JSONValue? = nil,
        advancedCommerceInfo: JSONValue? = nil, unknownFields: [String: JSONValue] = [:]
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId ?? transactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.bundleId = bundleId
        self.productId = productId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.type = type
        self.appAccountToken = appAccountToken
        self.inAppOwnershipType = inAppOwnershipType
        self.signedDate = signedDate
        self.revocationReason = revocationReason
        self.revocationDate = revocationDate
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.environment = environment
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.transactionReason = transactionReason
        self.currency = currency
        self.price = price
        self.offerDiscountType = offerDiscountType
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.billingPlanType = billingPlanType
        self.commitmentInfo = commitmentInfo
        self.advancedCommerceInfo = advancedCommerceInfo
        self.unknownFields = unknownFields
    }

    /// The price paid as an exact decimal amount of ``currency``.
    public var priceAmount: Decimal? {
        price.map { Decimal($0) / 1000 }
    }

    /// True once Apple refunded or revoked the transaction.
    public var isRevoked: Bool { revocationDate != nil }
}
