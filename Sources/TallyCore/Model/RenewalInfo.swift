import Foundation


/// The renewal state of one auto-renewable subscription chain, with the field names and meanings of
/// Apple's `JWSRenewalInfoDecodedPayload`.
public struct RenewalInfo: Sendable, Hashable, Codable {
    /// The subscription chain this information describes.
    public var originalTransactionId: String
    /// The product of the current period.
    public var productId: String
    /// The product that renews next period (differs after a downgrade or crossgrade).
    public var autoRenewProductId: String?
    /// Whether the subscription renews at the end of the period.
    public var autoRenewStatus: AutoRenewStatus
    /// Why the subscription expired.
    public var expirationIntent: ExpirationIntent?
    /// True while Apple retries a failed renewal.
    public var isInBillingRetryPeriod: Bool?
    /// End of the billing grace period.
    public var gracePeriodExpiresDate: Date?
    /// The customer's answer to a price increase.
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// The kind of offer applying to the next renewal.
    public var offerType: OfferType?
    /// The offer applying to the next renewal.
    public var offerIdentifier: String?
    /// How the next renewal's offer is paid.
    public var offerDiscountType: OfferDiscountType?
    /// ISO 8601 duration of the next renewal's offer.
    public var offerPeriod: String?
    /// When the App Store signed this record.
    public var signedDate: Date?
    /// The environment that signed the record.
    public var environment: StoreEnvironment?
    /// Earliest start of the current run of the subscription, ignoring lapses shorter than 60 days.
    public var recentSubscriptionStartDate: Date?
    /// When the most recent purchase expires: the next renewal.
    public var renewalDate: Date?
    /// ISO 4217 currency of ``renewalPrice``.
    public var currency: String?
    /// The next renewal's price in milliunits of ``currency``.
    public var renewalPrice: Int64?
    /// Win-back offers the customer may redeem, best first.
    public var eligibleWinBackOfferIds: [String]?
    /// The UUID the app linked to the purchase.
    public var appAccountToken: String?
    /// The app download transaction id.
    public var appTransactionId: String?
    /// The billing plan of the next renewal.
    public var renewalBillingPlanType: BillingPlanType?
    /// Commitment details, as Apple writes them.
    public var commitmentInfo: JSONValue?
    /// Advanced Commerce details, as Apple writes them.
    public var advancedCommerceInfo: JSONValue?
    /// Fields Tally does not model, kept as read.
    public var unknownFields: [String: JSONValue]

    /// Creates renewal information for a subscription chain.
    public init(
        originalTransactionId: String, productId: String, autoRenewProductId: String? = nil,
        autoRenewStatus: AutoRenewStatus = .on, expirationIntent: ExpirationIntent? = nil,
        isInBillingRetryPeriod: Bool? = nil, gracePeriodExpiresDate: Date? = nil,
        priceIncreaseStatus: PriceIncreaseStatus? = nil, offerType: OfferType? = nil,
        offerIdentifier: String? = nil, offerDiscountType: OfferDiscountType? = nil, offerPeriod: String? = nil,
        signedDate: Date? = nil, environment: StoreEnvironment? = nil, recentSubscriptionStartDate: Date? = nil,
        renewalDate: Date? = nil, currency: String? = nil, renewalPrice: Int64? = nil,
        eligibleWinBackOfferIds: [String]? = nil, appAccountToken: String? = nil, appTransactionId: String? = nil,
        renewalBillingPlanType: BillingPlanType? = nil, commitmentInfo: JSONValue? = nil,
        advancedCommerceInfo: JSONValue? = nil, unknownFields: [String: JSONValue] = [:]
    ) {
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.autoRenewProductId = autoRenewProductId ?? productId
        self.autoRenewStatus = autoRenewStatus
        self.expirationIntent = expirationIntent
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.priceIncreaseStatus = priceIncreaseStatus
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.offerDiscountType = offerDiscountType
        self.offerPeriod = offerPeriod
        self.signedDate = signedDate
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.currency = currency
        self.renewalPrice = renewalPrice
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.renewalBillingPlanType = renewalBillingPlanType
        self.commitmentInfo = commitmentInfo
        self.advancedCommerceInfo = advancedCommerceInfo
        self.unknownFields = unknownFields
    }

    /// True when auto-renew is on.
    public var willAutoRenew: Bool { autoRenewStatus == .on }
}
