#if canImport(StoreKit)
import Foundation
import StoreKit
import Tally

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension StoreKitBackend {
    /// StoreKit's errors as the engine's, case by case (the table in docs/engine.md). A cancellation is not an
    /// error for a purchase (see ``isUserCancellation(_:)``).
    static func storeError(_ error: any Error, doing action: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? StoreKit.Product.PurchaseError { return storeError(error, doing: action) }
        if let error = error as? StoreKitError { return storeError(error, doing: action) }
        if let error = error as? URLError {
            return StoreError(.networkError, "\(action): the App Store could not be reached (\(error.code.rawValue)); "
                + "try again later")
        }
        return StoreError(.backend, "\(action) failed: \(error)")
    }

    static func storeError(_ error: StoreKit.Product.PurchaseError, doing action: String) -> StoreError {
        switch error {
        case .invalidQuantity:
            StoreError(.invalidQuantity, "\(action): the App Store refused the quantity (1 to 10, consumables and "
                + "non-renewing subscriptions only)")
        case .productUnavailable:
            StoreError(.productUnavailable, "\(action): the product is not available for purchase")
        case .purchaseNotAllowed:
            StoreError(.purchaseNotAllowed, "\(action): this account may not make purchases (Screen Time, parental "
                + "controls or device management)")
        case .ineligibleForOffer:
            StoreError(.ineligibleForOffer, "\(action): the customer is not eligible for the offer (a win-back "
                + "offer for a subscriber who has not lapsed, an offer already redeemed)")
        case .invalidOfferIdentifier:
            StoreError(.invalidOfferIdentifier, "\(action): the offer id is not one of the product's offers")
        case .invalidOfferPrice:
            StoreError(.invalidOfferPrice, "\(action): the offer's price is not valid in the customer's storefront")
        case .invalidOfferSignature:
            StoreError(.invalidOfferSignature, "\(action): the offer's signature does not verify (wrong key, "
                + "product, offer or app account token, a nonce used before, or older than 24 hours)")
        case .missingOfferParameters:
            StoreError(.missingOfferParameters, "\(action): the offer lacks a parameter StoreKit needs (offer id, "
                + "key id, nonce, signature or timestamp)")
        @unknown default:
            StoreError(.backend, "\(action): StoreKit's purchase error \(error)")
        }
    }

    static func storeError(_ error: StoreKitError, doing action: String) -> StoreError {
        switch error {
        case .userCancelled:
            StoreError(.cancelled, "\(action): the customer cancelled")
        case .networkError(let underlying):
            StoreError(.networkError, "\(action): the App Store could not be reached (\(underlying.code.rawValue)); "
                + "try again later")
        case .notAvailableInStorefront:
            StoreError(.productUnavailable, "\(action): not available in the customer's storefront")
        case .notEntitled:
            StoreError(.backend, "\(action): the app lacks the In-App Purchase entitlement (StoreKitError.notEntitled)")
        case .systemError(let underlying):
            StoreError(.backend, "\(action): system error: \(underlying)")
        case .unknown:
            StoreError(.backend, "\(action): StoreKit failed with an unknown error")
        default:
            // `.unsupported` (iOS 18.4 / macOS 15.4) and cases newer SDKs add.
            StoreError(.backend, "\(action): StoreKit error \(error)")
        }
    }

    /// Whether `error` is the customer cancelling (`StoreKitError.userCancelled`).
    static func isUserCancellation(_ error: any Error) -> Bool {
        if let error = error as? StoreKitError, case .userCancelled = error { return true }
        return false
    }
}
#endif
