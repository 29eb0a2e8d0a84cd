/// A sandbox operation that could not be done: what went wrong and what to do about it.
public struct SandboxError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kind of failure, stable for programs to switch over.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// A product id is not in the catalog.
        case unknownProduct
        /// A pending purchase id is not known.
        case unknownPurchase
        /// A transaction id is not known.
        case unknownTransaction
        /// Purchases are not allowed for the account (parental controls).
        case purchaseNotAllowed
        /// The product cannot be bought (not in the store, or an injected fault).
        case productUnavailable
        /// An injected network error.
        case networkError
        /// An injected system error.
        case systemError
        /// The customer cancelled (injected).
        case userCancelled
        /// An injected error of unknown kind, or every purchase failing (`failTransactionsEnabled`).
        case unknown
        /// A quantity other than 1 for a product that is not consumable, or below 1.
        case invalidQuantity
        /// A duration such as `3d` could not be parsed.
        case invalidDuration
        /// The pending purchase was already approved, declined or resolved, or the transaction already refunded.
        case alreadyResolved
        /// The pending purchase is of the other kind (approving an interrupted purchase, resolving an Ask to Buy).
        case wrongPendingKind
        /// The account has no active subscription for the product.
        case notSubscribed
        /// A request the store refuses as asked (a refund request for a product type Apple asks none for, a
        /// decision without an open request, reversing a refund that was never made).
        case invalidRequest
        /// The subscription cannot have its renewal date extended now (expired, in billing retry, in a free offer period).
        case extensionIneligible
        /// The subscription had two renewal-date extensions within 365 days already.
        case extensionLimitReached
        /// The state file is not a valid sandbox state.
        case corruptState
        /// There is no sandbox state in the directory.
        case noState
        /// A sandbox state already exists where a new one was to be created.
        case stateExists
        /// A reloaded catalog or configuration would break what the sandbox holds: a product bought, pending or
        /// subscribed to is missing or changed its type or subscription group, or the bundle id changed.
        case catalogConflict
        /// Reading or writing the state failed.
        case io
        /// An offer's signature does not verify with a registered key, was made for another product, offer, bundle
        /// or token, is older than 24 hours, or its nonce was used before (StoreKit's `invalidOfferSignature`).
        case invalidOfferSignature
        /// The product has no offer with that id (StoreKit's `invalidOfferIdentifier`).
        case invalidOfferIdentifier
        /// The offer's price is not valid for the product (StoreKit's `invalidOfferPrice`).
        case invalidOfferPrice
        /// The account may not have the offer: a win-back offer without having lapsed, an offer redeemed before,
        /// an offer code already used (StoreKit's `ineligibleForOffer`).
        case ineligibleForOffer
        /// The offer lacks a part (an empty offer id) (StoreKit's `missingOfferParameters`).
        case missingOfferParameters
        /// No offer code with that text was made (`tally sandbox offer-code create`).
        case unknownOfferCode
    }

    /// The kind of failure.
    public var code: Code
    /// A sentence a person can act on, naming the file, product or id involved.
    public var message: String

    /// Creates an error with a code and a human message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The human message.
    public var description: String { message }
}
