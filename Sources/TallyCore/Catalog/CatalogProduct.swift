import Foundation


/// A product the store sells, as configured in a .storekit file.
public struct CatalogProduct: Sendable, Hashable, Codable, Identifiable {
    /// Localized name and description for one locale.
    public struct Localization: Sendable, Hashable, Codable {
        /// Locale identifier with underscores, language-only allowed (`en_US`, `ja`, `zh_Hans`).
        public var locale: String
        /// The name shown to customers.
        public var displayName: String
        /// The description shown to customers.
        public var description: String

        /// Creates a localization.
        public init(locale: String, displayName: String, description: String) {
            self.locale = locale
            self.displayName = displayName
            self.description = description
        }
    }

    /// Subscription details of an auto-renewable product.
    public struct Subscription: Sendable, Hashable, Codable {
        /// The subscription group id.
        public var groupId: String
        /// Apple's `groupNumber`: 1 is the highest level of service; several products may share a level.
        public var level: Int
        /// The billing period.
        public var period: SubscriptionDuration
        /// The introductory offer, if any.
        public var introductoryOffer: SubscriptionOffer?
        /// Promotional offers (`adHocOffers`).
        public var promotionalOffers: [SubscriptionOffer]
        /// Win-back offers.
        public var winBackOffers: [SubscriptionOffer]
        /// Offer-code offers (`codeOffers`); their id is the offer's reference name.
        public var offerCodes: [SubscriptionOffer]
        /// Billing plans (`billingPlans`, v5.0+), such as a 12-month commitment billed monthly.
        public var billingPlans: [SubscriptionBillingPlan]

        /// Creates subscription details.
        public init(groupId: String, level: Int, period: SubscriptionDuration,
                    introductoryOffer: SubscriptionOffer? = nil,
                    promotionalOffers: [SubscriptionOffer] = [], winBackOffers: [SubscriptionOffer] = [],
                    offerCodes: [SubscriptionOffer] = [], billingPlans: [SubscriptionBillingPlan] = []) {
            self.groupId = groupId
            self.level = level
            self.period = period
            self.introductoryOffer = introductoryOffer
            self.promotionalOffers = promotionalOffers
            self.winBackOffers = winBackOffers
            self.offerCodes = offerCodes
            self.billingPlans = billingPlans
        }
    }

    /// The App Store product id.
    public var id: String
    /// The kind of product.
    public var kind: ProductKind
    /// The reference name used in App Store Connect, if any.
    public var referenceName: String?
    /// Price in ``currency``, exact.
    public var price: Decimal
    /// ISO 4217 currency code of the price (from the storefront).
    public var currency: String
    /// Whether Family Sharing is enabled.
    public var familyShareable: Bool
    /// Localizations, in file order.
    public var localizations: [Localization]
    /// Subscription details; set for auto-renewable products only.
    public var subscription: Subscription?

    /// Creates a product.
    public init(id: String, kind: ProductKind, referenceName: String? = nil, price: Decimal, currency: String,
                familyShareable: Bool = false, localizations: [Localization] = [], subscription: Subscription? = nil) {
        self.id = id
        self.kind = kind
        self.referenceName = referenceName
        self.price = price
        self.currency = currency
        self.familyShareable = familyShareable
        self.localizations = localizations
        self.subscription = subscription
    }
}
