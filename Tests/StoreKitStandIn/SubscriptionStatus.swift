import Foundation

extension Product.SubscriptionInfo {
    /// Stands in for `Product.SubscriptionInfo.Status`.
    public struct Status: Equatable, Hashable, Sendable {
        /// The renewal state.
        public let state: Product.SubscriptionInfo.RenewalState
        /// The latest transaction in the group.
        public let transaction: VerificationResult<Transaction>
        /// The signed renewal info.
        public let renewalInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>

        /// A scripted status.
        @_spi(Scripting) public init(state: Product.SubscriptionInfo.RenewalState,
                                     transaction: VerificationResult<Transaction>,
                                     renewalInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>) {
            self.state = state
            self.transaction = transaction
            self.renewalInfo = renewalInfo
        }
    }

    /// Stands in for `Product.SubscriptionInfo.RenewalState` (a struct with `Int` raw values; see the header).
    public struct RenewalState: Equatable, Hashable, RawRepresentable, Sendable {
        /// The raw value, as StoreKit has it.
        public let rawValue: Int
        /// Wraps a raw value, known or not (as StoreKit may send a newer one).
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// StoreKit's `subscribed` (raw value 1).
        public static let subscribed = RenewalState(rawValue: 1)
        /// StoreKit's `expired` (raw value 2).
        public static let expired = RenewalState(rawValue: 2)
        /// StoreKit's `inBillingRetryPeriod` (raw value 3).
        public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
        /// StoreKit's `inGracePeriod` (raw value 4).
        public static let inGracePeriod = RenewalState(rawValue: 4)
        /// StoreKit's `revoked` (raw value 5).
        public static let revoked = RenewalState(rawValue: 5)
    }

    /// Stands in for `Product.SubscriptionInfo.RenewalInfo`, read from its scripted JWS.
    public struct RenewalInfo: Equatable, Hashable, Sendable, CustomDebugStringConvertible {
        /// Stands in for `RenewalInfo.ExpirationReason` (a struct with raw values).
        public struct ExpirationReason: Equatable, Hashable, RawRepresentable, Sendable {
            /// The raw value, as StoreKit has it.
            public let rawValue: Int
            /// Wraps a raw value, known or not (as StoreKit may send a newer one).
            public init(rawValue: Int) { self.rawValue = rawValue }
            /// StoreKit's `autoRenewDisabled` (raw value 1).
            public static let autoRenewDisabled = ExpirationReason(rawValue: 1)
            /// StoreKit's `billingError` (raw value 2).
            public static let billingError = ExpirationReason(rawValue: 2)
            /// StoreKit's `didNotConsentToPriceIncrease` (raw value 3).
            public static let didNotConsentToPriceIncrease = ExpirationReason(rawValue: 3)
            /// StoreKit's `productUnavailable` (raw value 4).
            public static let productUnavailable = ExpirationReason(rawValue: 4)
            /// StoreKit's `unknown` (raw value 5).
            public static let unknown = ExpirationReason(rawValue: 5)
        }

        /// Stands in for `RenewalInfo.PriceIncreaseStatus` (a `@frozen` enum).
        @frozen public enum PriceIncreaseStatus: Equatable, Hashable, Sendable {
            case noIncreasePending, agreed, pending
        }

        /// The original transaction of the subscription.
        public let originalTransactionID: UInt64
        /// The product currently subscribed to.
        public let currentProductID: String
        /// Whether it renews at the end of the period.
        public let willAutoRenew: Bool
        /// The product that will renew.
        public let autoRenewPreference: String?
        /// Why it expired.
        public let expirationReason: Product.SubscriptionInfo.RenewalInfo.ExpirationReason?
        /// Price-increase consent.
        public let priceIncreaseStatus: Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus
        /// Whether it is in billing retry.
        public let isInBillingRetry: Bool
        /// The end of the grace period.
        public let gracePeriodExpirationDate: Date?
        /// When it was signed.
        public let signedDate: Date
        /// The device verification value.
        public let deviceVerification: Data
        /// The device verification nonce.
        public let deviceVerificationNonce: UUID
        /// The win-back offers the customer may buy with, best first (the payload's `eligibleWinBackOfferIds`).
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public let eligibleWinBackOfferIDs: [String]
        /// The decoded JWS payload.
        public var jsonRepresentation: Data { payload }

        let payload: Data
        let jws: String

        /// A short description, for test failure messages.
        public var debugDescription: String { "RenewalInfo(\(originalTransactionID), \(currentProductID))" }

        /// A scripted renewal info, read from its JWS (App Store `JWSRenewalInfoDecodedPayload`).
        @_spi(Scripting) public init(jwsRepresentation: String) throws(ScriptError) {
            let payload = try SignedPayload(jws: jwsRepresentation)
            originalTransactionID = try payload.id("originalTransactionId")
            guard let product = payload.string("productId") else { throw ScriptError("a renewal info needs productId") }
            currentProductID = product
            willAutoRenew = payload.int("autoRenewStatus") == 1
            autoRenewPreference = payload.string("autoRenewProductId")
            expirationReason = payload.int("expirationIntent").map(ExpirationReason.init(rawValue:))
            priceIncreaseStatus = switch payload.int("priceIncreaseStatus") {
            case 1: .agreed
            case 0: .pending
            default: .noIncreasePending
            }
            isInBillingRetry = payload.bool("isInBillingRetryPeriod") ?? false
            gracePeriodExpirationDate = payload.date("gracePeriodExpiresDate")
            signedDate = payload.date("signedDate") ?? Date(timeIntervalSince1970: 0)
            eligibleWinBackOfferIDs = payload.strings("eligibleWinBackOfferIds") ?? []
            deviceVerification = Data()
            deviceVerificationNonce = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            self.payload = payload.data
            jws = jwsRepresentation
        }
    }
}

extension Product.SubscriptionInfo.Status {
    /// Stands in for `Product.SubscriptionInfo.Status.Statuses`: a struct conforming to `AsyncSequence`.
    public struct Statuses: AsyncSequence {
        /// Each element: a subscription group's status, as it changed.
        public typealias Element = Product.SubscriptionInfo.Status

        let stream: AsyncStream<Product.SubscriptionInfo.Status>

        /// Iterates without throwing (`for await`).
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<Product.SubscriptionInfo.Status>.Iterator
            /// The next status pushed; nil once the sequence ends.
            public mutating func next() async -> Product.SubscriptionInfo.Status.Statuses.Element? {
                await base.next()
            }
        }

        /// An iterator over the statuses pushed.
        public func makeAsyncIterator() -> Product.SubscriptionInfo.Status.Statuses.AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator())
        }
    }

    /// Status changes of the customer's subscriptions (renewals, auto-renew turned off, billing retry, grace,
    /// expiry): what tests push through ``StoreKitScript/pushStatusUpdate(_:)`` after this sequence was made.
    /// Apple's interface declares it in the iOS 15 extension; Apple's documentation gives iOS 17.
    public static var updates: Product.SubscriptionInfo.Status.Statuses { StoreKitScript.shared.statusUpdatesSequence() }
}

extension Product.SubscriptionInfo.Status.Statuses: Sendable {}
