import Foundation
import TallyCore


/// Why a store operation failed: a code to switch over and a sentence a person can act on.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The account may not buy (parental controls, Screen Time): `Product.PurchaseError.purchaseNotAllowed`.
        case purchaseNotAllowed
        /// The product is not sold (unknown id, not in this storefront): `productUnavailable`.
        case productUnavailable
        /// The store could not be reached; try again later.
        case networkError
        /// A transaction or the store's answer failed verification; its content was not delivered.
        case verificationFailed
        /// A quantity below 1, or above 1 for a product that is not a consumable.
        case invalidQuantity
        /// A spend asked for more than the balance holds.
        case insufficientBalance
        /// A spend id was reused for a different currency or amount.
        case conflictingId
        /// A value passed in is not usable (empty spend id, unknown currency, amount not above zero).
        case invalidValue
        /// The customer file could not be read or written.
        case storage
        /// Any other failure of the backend.
        case backend
        /// Not offered to apps with a ``ServerLink``: spends need the server's secret key, which only the app's
        /// backend holds (`POST /v1/customers/{appUserId}/currencies/{currency}/spend`, docs/server.md).
        case spendOnAppBackend
        /// The customer cancelled (a restore's sign-in): not a failure of the store. A cancelled purchase is
        /// the ``PurchaseOutcome/cancelled`` outcome instead.
        case cancelled
        /// ``Store/switchCustomer(to:appAccountToken:)`` while a purchase call (or another switch) is under way:
        /// nothing changed; switch once it returned.
        case purchaseInProgress
        /// The server refused the request for good (an alias conflict at ``Store/logIn(_:)``, an attribute past a
        /// bound at ``Store/setAttributes(_:)``): ``StoreError/serverCode`` holds its error code; retrying the same
        /// request cannot succeed.
        case serverRefused
        /// The offer's signature does not verify, its nonce was used before, it is older than 24 hours, or it
        /// was made for another product, token or key: StoreKit's `invalidOfferSignature`.
        case invalidOfferSignature
        /// The product has no offer with that id: StoreKit's `invalidOfferIdentifier`.
        case invalidOfferIdentifier
        /// The offer's price is not valid in the customer's storefront: StoreKit's `invalidOfferPrice`.
        case invalidOfferPrice
        /// The customer may not have the offer (a win-back offer for a subscriber who has not lapsed, an offer
        /// code already redeemed): StoreKit's `ineligibleForOffer`.
        case ineligibleForOffer
        /// The offer lacks a part StoreKit needs (an empty signature, key id or offer id):
        /// StoreKit's `missingOfferParameters`.
        case missingOfferParameters
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong and what to do, naming the product, id or file involved.
    public var message: String
    /// The server's error code (docs/server.md, `alias_conflict`, `invalid_alias`, `invalid_attributes`) for
    /// ``Code/serverRefused``; nil otherwise.
    public var serverCode: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A refusal of the server, with its error code.
    public init(serverRefused status: Int, code serverCode: String, message: String) {
        self.init(.serverRefused, "the server refused (\(status) \(serverCode)): \(message)")
        self.serverCode = serverCode
    }

    /// The message.
    public var description: String { message }

    /// A backend's error as a store error: a `StoreError` as is, anything else as `.backend`.
    static func from(_ error: any Error, doing action: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? TallyError { return StoreError(tally: error) }
        return StoreError(.backend, "\(action) failed: \(error)")
    }

    /// A rules error as a store error.
    init(tally error: TallyError) {
        switch error.code {
        case .insufficientBalance: self.init(.insufficientBalance, error.message)
        case .conflictingId: self.init(.conflictingId, error.message)
        case .unknownProduct: self.init(.productUnavailable, error.message)
        case .invalidPayload: self.init(.verificationFailed, error.message)
        case .invalidValue, .invalidConfiguration, .invalidOfferings: self.init(.invalidValue, error.message)
        }
    }
}
