import Foundation


/// An introductory, promotional, offer-code or win-back offer on an auto-renewable subscription.
public struct SubscriptionOffer: Sendable, Hashable, Codable {
    /// The kind of offer.
    public enum Kind: String, Sendable, Hashable, Codable {
        case introductory, promotional, offerCode, winBack
    }

    /// How the customer pays during the offer.
    public enum PaymentMode: String, Sendable, Hashable, Codable {
        /// Free for the offer period (`free` in .storekit files).
        case freeTrial
        /// A discounted price each period for `periodCount` periods.
        case payAsYouGo
        /// One discounted payment for the whole offer period.
        case payUpFront
    }

    /// A class of customer an offer code is for (`eligibility` of the `.storekit` file's `codeOffers`).
    public enum CustomerClass: String, Sendable, Hashable, Codable, CaseIterable {
        /// Never subscribed in the group.
        case new
        /// Subscribed in the group now.
        case existing
        /// Subscribed in the group before; lapsed now.
        case expired
    }

    /// The offer id the app passes (`offerID`); nil for introductory offers.
    public var id: String?
    /// The reference name shown in App Store Connect and Xcode, if any.
    public var referenceName: String?
    /// The kind of offer.
    public var kind: Kind
    /// How the customer pays.
    public var paymentMode: PaymentMode
    // The three facts below sit here, one byte each, inside the padding before `period`, so the value keeps its
    // size: with typed throws, Swift 6.3.1 miscompiled the .storekit reader (a corrupt CatalogProduct, a crash in
    // its copy) when SubscriptionOffer grew.
    /// Whether an offer code may be redeemed on top of another offer in force (`isStackable`); nil when not said.
    public var isStackable: Bool?
    /// Whether the local test customer counts as eligible for a win-back offer (`isEligible`; inferred from the
    /// files and Apple's "set up the offers in your StoreKit configuration file", not documented); nil when not said.
    public var isEligible: Bool?
    /// ``eligibility`` as bits of ``CustomerClass/allCases``.
    var eligibilityBits: UInt8?
    /// The length of one offer period.
    public var period: SubscriptionDuration
    /// How many offer periods (1 unless the file says otherwise).
    public var periodCount: Int
    /// The offer price per period, or for the whole offer when paid up front; zero for free trials.
    public var price: Decimal
    /// Who may redeem an offer code (`eligibility`); nil when the file does not say (everyone).
    public var eligibility: Set<CustomerClass>? {
        get { eligibilityBits.map { bits in Set(CustomerClass.allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element)) } }
        set { eligibilityBits = newValue.map { set in CustomerClass.allCases.enumerated().reduce(UInt8(0)) { $0 | (set.contains($1.element) ? 1 << $1.offset : 0) } } }
    }

    /// Creates an offer.
    public init(id: String? = nil, kind: Kind, paymentMode: PaymentMode, period: SubscriptionDuration,
                periodCount: Int = 1, price: Decimal = 0, referenceName: String? = nil,
                eligibility: Set<CustomerClass>? = nil, isStackable: Bool? = nil, isEligible: Bool? = nil) {
        self.isStackable = isStackable
        self.isEligible = isEligible
        self.id = id
        self.kind = kind
        self.paymentMode = paymentMode
        self.period = period
        self.periodCount = periodCount
        self.price = price
        self.referenceName = referenceName
        self.eligibility = eligibility
    }
}

extension SubscriptionOffer.Kind {
    /// Apple's `offerType` for the kind: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    public var offerType: OfferType {
        switch self {
        case .introductory: .introductory
        case .promotional: .promotional
        case .offerCode: .offerCode
        case .winBack: .winBack
        }
    }
}
