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

    /// The offer id the app passes (`offerID`); nil for introductory offers.
    public var id: String?
    /// The reference name shown in App Store Connect and Xcode, if any.
    public var referenceName: String?
    /// The kind of offer.
    public var kind: Kind
    /// How the customer pays.
    public var paymentMode: PaymentMode
    /// The length of one offer period.
    public var period: SubscriptionDuration
    /// How many offer periods (1 unless the file says otherwise).
    public var periodCount: Int
    /// The offer price per period, or for the whole offer when paid up front; zero for free trials.
    public var price: Decimal

    /// Creates an offer.
    public init(id: String? = nil, kind: Kind, paymentMode: PaymentMode, period: SubscriptionDuration,
                periodCount: Int = 1, price: Decimal = 0, referenceName: String? = nil) {
        self.id = id
        self.kind = kind
        self.paymentMode = paymentMode
        self.period = period
        self.periodCount = periodCount
        self.price = price
        self.referenceName = referenceName
    }
}
