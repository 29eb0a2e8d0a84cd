import Foundation
import UIKit

/// Stands in for `StoreKit.Product`: a product's App Store data, and the purchase call.
public struct Product: Equatable, Hashable, Identifiable, Sendable, CustomDebugStringConvertible {
    /// The product identifier from App Store Connect.
    public let id: String
    /// The kind of in-app purchase.
    public let type: Product.ProductType
    /// The localized name.
    public let displayName: String
    /// The localized description.
    public let description: String
    /// The price in local currency units.
    public let price: Decimal
    /// The localized, formatted price.
    public let displayPrice: String
    /// Subscription details; non-nil for auto-renewable subscriptions only.
    public let subscription: Product.SubscriptionInfo?
    /// Whether Family Sharing is enabled.
    public let isFamilyShareable: Bool
    /// The format style for values derived from `price`.
    public var priceFormatStyle: Decimal.FormatStyle.Currency { .init(code: currencyCode) }
    private let currencyCode: String

    /// A short description, for test failure messages.
    public var debugDescription: String { "Product(\(id), \(displayPrice))" }

    /// A scripted product (Apple's `Product` has no public initializer).
    @_spi(Scripting) public init(id: String, type: Product.ProductType, displayName: String, description: String = "",
                                 price: Decimal, currencyCode: String, displayPrice: String,
                                 subscription: Product.SubscriptionInfo? = nil, isFamilyShareable: Bool = false) {
        self.id = id
        self.type = type
        self.displayName = displayName
        self.description = description
        self.price = price
        self.currencyCode = currencyCode
        self.displayPrice = displayPrice
        self.subscription = subscription
        self.isFamilyShareable = isFamilyShareable
    }

    /// The scripted products among `identifiers` (duplicates ignored, unknown ids omitted), or the scripted error.
    public static func products<Identifiers>(for identifiers: Identifiers) async throws -> [Product]
    where Identifiers: Collection, Identifiers.Element == String {
        try StoreKitScript.shared.answerProducts(Array(identifiers))
    }

    /// Records the call and answers what the script's purchase handler returns or throws.
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    @available(visionOS, unavailable)
    @MainActor public func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        try StoreKitScript.shared.answerPurchase(self, options: options)
    }

    /// Records the call (its scene in ``StoreKitScript/Calls/confirmedIn``) and answers as ``purchase(options:)``.
    @available(iOS 17.0, tvOS 17.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor public func purchase(confirmIn scene: some UIScene, options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        StoreKitScript.shared.recordConfirmation(in: scene)
        return try StoreKitScript.shared.answerPurchase(self, options: options)
    }
}

extension Product {
    /// Stands in for `Product.ProductType`: a struct with raw values, not an enum.
    public struct ProductType: Equatable, Hashable, RawRepresentable, Sendable {
        /// The raw value, as StoreKit has it.
        public let rawValue: String
        /// Wraps a raw value, known or not (as StoreKit may send a newer one).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A consumable.
        public static let consumable = ProductType(rawValue: "Consumable")
        /// A non-consumable.
        public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
        /// A non-renewing subscription.
        public static let nonRenewable = ProductType(rawValue: "Non-Renewing Subscription")
        /// An auto-renewable subscription.
        public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")
    }

    /// Stands in for `Product.PurchaseResult` (not `@frozen`).
    public enum PurchaseResult: Sendable {
        /// The purchase completed; the app must still verify and finish the transaction.
        case success(VerificationResult<Transaction>)
        /// The customer cancelled the sheet.
        case userCancelled
        /// Needs customer action (Ask to Buy); the transaction comes through `Transaction.updates`.
        case pending
    }

    /// Stands in for `Product.PurchaseOption`.
    public struct PurchaseOption: Equatable, Hashable, Sendable, CustomDebugStringConvertible {
        enum Value: Hashable, Sendable {
            case appAccountToken(UUID)
            case quantity(Int)
            case simulatesAskToBuyInSandbox(Bool)
            case promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int)
            case promotionalOfferJWS(offerID: String, compactJWS: String)
            case winBackOffer(Product.SubscriptionOffer)
            case introductoryOfferEligibility(compactJWS: String)
        }

        let value: Value

        /// The UUID that comes back in `Transaction.appAccountToken`.
        public static func appAccountToken(_ token: UUID) -> Product.PurchaseOption { .init(value: .appAccountToken(token)) }
        /// How many (consumables, non-renewing subscriptions); default 1, at most 10.
        public static func quantity(_ quantity: Int) -> Product.PurchaseOption { .init(value: .quantity(quantity)) }
        /// Sandbox only: simulates Ask to Buy.
        public static func simulatesAskToBuyInSandbox(_ simulateAskToBuy: Bool) -> Product.PurchaseOption {
            .init(value: .simulatesAskToBuyInSandbox(simulateAskToBuy))
        }

        /// A promotional offer signed with the V1 signature (Apple: deprecated in iOS 26 for the JWS form).
        @available(iOS, introduced: 15.0, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(macOS, introduced: 12.0, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(tvOS, introduced: 15.0, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(watchOS, introduced: 8.0, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(visionOS, introduced: 1.0, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        public static func promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int) -> Product.PurchaseOption {
            .init(value: .promotionalOffer(offerID: offerID, keyID: keyID, nonce: nonce, signature: signature,
                                           timestamp: timestamp))
        }

        /// A promotional offer signed with the V1 signature, as a value; the same option as the form above.
        @available(iOS, introduced: 17.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(macOS, introduced: 14.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(tvOS, introduced: 17.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(watchOS, introduced: 10.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(visionOS, introduced: 1.1, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        public static func promotionalOffer(offerID: String, signature: Product.SubscriptionOffer.Signature) -> Product.PurchaseOption {
            .init(value: .promotionalOffer(offerID: offerID, keyID: signature.keyID, nonce: signature.nonce,
                                           signature: signature.signature, timestamp: signature.timestamp))
        }

        /// A promotional offer signed as a compact JWS: one option here (Apple answers an array, whatever it holds).
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        @backDeployed(before: iOS 19.0, macOS 16.0, tvOS 19.0, watchOS 12.0, visionOS 3.0)
        public static func promotionalOffer(_ offerID: String, compactJWS: String) -> [Product.PurchaseOption] {
            [.init(value: .promotionalOfferJWS(offerID: offerID, compactJWS: compactJWS))]
        }

        /// A win-back offer of the product (one of its `subscription?.winBackOffers`).
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public static func winBackOffer(_ offer: Product.SubscriptionOffer) -> Product.PurchaseOption {
            .init(value: .winBackOffer(offer))
        }

        /// The introductory offer as the app server's introductory offer eligibility JWS allows or denies it.
        @backDeployed(before: iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4)
        public static func introductoryOfferEligibility(compactJWS: String) -> Product.PurchaseOption {
            .init(value: .introductoryOfferEligibility(compactJWS: compactJWS))
        }

        /// A short description, for test failure messages.
        public var debugDescription: String { "\(value)" }

        /// The token this option carries, if it is `.appAccountToken`.
        @_spi(Scripting) public var appAccountToken: UUID? {
            if case .appAccountToken(let token) = value { token } else { nil }
        }
        /// The quantity this option carries, if it is `.quantity`.
        @_spi(Scripting) public var quantity: Int? {
            if case .quantity(let quantity) = value { quantity } else { nil }
        }
        /// The offer id this option names, if it is a promotional or win-back offer.
        @_spi(Scripting) public var offerID: String? {
            switch value {
            case .promotionalOffer(let id, _, _, _, _), .promotionalOfferJWS(let id, _): id
            case .winBackOffer(let offer): offer.id
            default: nil
            }
        }
    }

    /// Stands in for `Product.PurchaseError`.
    public enum PurchaseError: Equatable, Hashable, Error, LocalizedError, Sendable {
        case invalidQuantity
        case productUnavailable
        case purchaseNotAllowed
        case ineligibleForOffer
        case invalidOfferIdentifier
        case invalidOfferPrice
        case invalidOfferSignature
        case missingOfferParameters
    }
}
