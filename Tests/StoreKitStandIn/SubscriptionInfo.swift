import Foundation

extension Product {
    /// Stands in for `Product.SubscriptionInfo`.
    public struct SubscriptionInfo: Equatable, Hashable, Sendable {
        /// The subscription group id.
        public let subscriptionGroupID: String
        /// The renewal period.
        public let subscriptionPeriod: Product.SubscriptionPeriod
        /// The configured introductory offer.
        public let introductoryOffer: Product.SubscriptionOffer?
        /// The configured promotional offers.
        public let promotionalOffers: [Product.SubscriptionOffer]
        /// The configured win-back offers, for customers who lapsed.
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public let winBackOffers: [Product.SubscriptionOffer]
        /// The localized group name (iOS 16.4 / macOS 13.3, back-deployed before iOS 17).
        @available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, *)
        public var groupDisplayName: String { displayName }
        /// The service level; 1 is the highest (iOS 16.4 / macOS 13.3, back-deployed before iOS 17).
        @available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, *)
        public var groupLevel: Int { level }
        private let displayName: String
        private let level: Int

        /// Scripted subscription details.
        @_spi(Scripting) public init(subscriptionGroupID: String, subscriptionPeriod: Product.SubscriptionPeriod,
                                     introductoryOffer: Product.SubscriptionOffer? = nil,
                                     promotionalOffers: [Product.SubscriptionOffer] = [],
                                     winBackOffers: [Product.SubscriptionOffer] = [], groupLevel: Int = 1,
                                     groupDisplayName: String = "") {
            level = groupLevel
            displayName = groupDisplayName
            self.subscriptionGroupID = subscriptionGroupID
            self.subscriptionPeriod = subscriptionPeriod
            self.introductoryOffer = introductoryOffer
            self.promotionalOffers = promotionalOffers
            self.winBackOffers = winBackOffers
        }

        /// Whether the customer can get this group's introductory offer (scripted per group; true unless set).
        public var isEligibleForIntroOffer: Bool {
            get async { await Self.isEligibleForIntroOffer(for: subscriptionGroupID) }
        }

        /// The scripted eligibility of `groupID`.
        public static func isEligibleForIntroOffer(for groupID: String) async -> Bool {
            StoreKitScript.shared.introOfferEligibility(groupID)
        }

        /// The scripted statuses of this product's group; empty if never subscribed.
        public var status: [Product.SubscriptionInfo.Status] {
            get async throws { try await Self.status(for: subscriptionGroupID) }
        }

        /// The scripted statuses of `groupID`, or the scripted error.
        public static func status(for groupID: String) async throws -> [Product.SubscriptionInfo.Status] {
            try StoreKitScript.shared.answerStatus(groupID)
        }
    }

    /// Stands in for `Product.SubscriptionPeriod`.
    public struct SubscriptionPeriod: Equatable, Hashable, Sendable, CustomDebugStringConvertible {
        /// Stands in for `Product.SubscriptionPeriod.Unit`.
        public enum Unit: Comparable, Equatable, Hashable, Sendable, CustomDebugStringConvertible {
            case day, week, month, year
            /// A short description, for test failure messages.
            public var debugDescription: String {
                switch self {
                case .day: "day"
                case .week: "week"
                case .month: "month"
                case .year: "year"
                }
            }
        }

        /// How many units.
        public let value: Int
        /// The unit.
        public let unit: Product.SubscriptionPeriod.Unit

        /// A scripted period.
        @_spi(Scripting) public init(value: Int, unit: Product.SubscriptionPeriod.Unit) {
            self.value = value
            self.unit = unit
        }

        /// A short description, for test failure messages.
        public var debugDescription: String { "\(value) \(unit)" }
    }

    /// Stands in for `Product.SubscriptionOffer`.
    public struct SubscriptionOffer: Equatable, Hashable, Sendable {
        /// Stands in for `Product.SubscriptionOffer.OfferType` (a struct with raw values).
        public struct OfferType: Equatable, Hashable, RawRepresentable, Sendable {
            /// The raw value, as StoreKit has it.
            public let rawValue: String
            /// Wraps a raw value, known or not (as StoreKit may send a newer one).
            public init(rawValue: String) { self.rawValue = rawValue }
            /// StoreKit's `introductory` (raw value "introductory").
            public static let introductory = OfferType(rawValue: "introductory")
            /// StoreKit's `promotional` (raw value "promotional").
            public static let promotional = OfferType(rawValue: "promotional")
            /// StoreKit's `winBack` (raw value "winBack").
            @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
            public static let winBack = OfferType(rawValue: "winBack")
        }

        /// Stands in for `Product.SubscriptionOffer.PaymentMode` (a struct with raw values).
        public struct PaymentMode: Equatable, Hashable, RawRepresentable, Sendable {
            /// The raw value, as StoreKit has it.
            public let rawValue: String
            /// Wraps a raw value, known or not (as StoreKit may send a newer one).
            public init(rawValue: String) { self.rawValue = rawValue }
            /// StoreKit's `freeTrial` (raw value "freeTrial").
            public static let freeTrial = PaymentMode(rawValue: "freeTrial")
            /// StoreKit's `payAsYouGo` (raw value "payAsYouGo").
            public static let payAsYouGo = PaymentMode(rawValue: "payAsYouGo")
            /// StoreKit's `payUpFront` (raw value "payUpFront").
            public static let payUpFront = PaymentMode(rawValue: "payUpFront")
        }

        /// The offer id; nil for introductory offers.
        public let id: String?
        /// The kind of offer.
        public let type: Product.SubscriptionOffer.OfferType
        /// The discounted price.
        public let price: Decimal
        /// The discounted price, formatted.
        public let displayPrice: String
        /// How the customer pays during the offer.
        public let paymentMode: Product.SubscriptionOffer.PaymentMode
        /// The length of one offer period.
        public let period: Product.SubscriptionPeriod
        /// How many periods the offer lasts.
        public let periodCount: Int

        /// A scripted offer.
        @_spi(Scripting) public init(id: String?, type: Product.SubscriptionOffer.OfferType, price: Decimal,
                                     displayPrice: String, paymentMode: Product.SubscriptionOffer.PaymentMode,
                                     period: Product.SubscriptionPeriod, periodCount: Int) {
            self.id = id
            self.type = type
            self.price = price
            self.displayPrice = displayPrice
            self.paymentMode = paymentMode
            self.period = period
            self.periodCount = periodCount
        }
    }
}

extension Product.SubscriptionOffer {
    /// Stands in for `Product.SubscriptionOffer.Signature`: a promotional offer's V1 signature, as a value.
    @available(iOS, introduced: 17.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use PurchaseOption.promotionalOffer(_:compactJWS:) instead")
    @available(macOS, introduced: 14.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use PurchaseOption.promotionalOffer(_:compactJWS:) instead")
    @available(tvOS, introduced: 17.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use PurchaseOption.promotionalOffer(_:compactJWS:) instead")
    @available(watchOS, introduced: 10.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use PurchaseOption.promotionalOffer(_:compactJWS:) instead")
    @available(visionOS, introduced: 1.1, deprecated: 26.0, message: "Sign promotional offers with JWS and use PurchaseOption.promotionalOffer(_:compactJWS:) instead")
    public struct Signature: Equatable, Hashable, Sendable {
        /// The id of the in-app purchase key that signed.
        public var keyID: String
        /// The nonce signed.
        public var nonce: UUID
        /// When it was signed, in milliseconds since 1970.
        public var timestamp: Int
        /// The ECDSA signature.
        public var signature: Data

        /// A signature.
        public init(keyID: String, nonce: UUID, timestamp: Int, signature: Data) {
            self.keyID = keyID
            self.nonce = nonce
            self.timestamp = timestamp
            self.signature = signature
        }
    }
}
