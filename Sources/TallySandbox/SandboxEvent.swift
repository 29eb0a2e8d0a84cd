import Foundation

/// One thing the simulated store did, in the order it happened. Enough to derive App Store Server
/// Notifications V2 later: the kind, the account, the product, the transaction and its chain.
public struct SandboxEvent: Sendable, Codable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Codable, Hashable, CaseIterable {
        /// The sandbox was created.
        case created
        /// A product request was answered.
        case productsRequested
        /// A purchase completed with a new transaction.
        case purchased
        /// A purchase asked for something already owned; nothing was charged.
        case alreadyOwned
        /// A purchase is waiting (Ask to Buy or interrupted).
        case pending
        /// A parent approved an Ask to Buy purchase.
        case approved
        /// A parent declined an Ask to Buy purchase.
        case declined
        /// An interrupted purchase was resolved.
        case resolved
        /// The customer cancelled.
        case cancelled
        /// A call failed (injected error, parental controls, unavailable product, bad quantity).
        case failed
        /// An immediate change to a higher level (or a same-period crossgrade); `detail` is UPGRADE or CROSSGRADE.
        case upgraded
        /// The product renewing next changed; `detail` is DOWNGRADE, CROSSGRADE or nil (change cancelled).
        case renewalPreferenceChanged
        /// A subscription renewed; `detail` names a product change.
        case renewed
        /// A subscription expired; `detail` is VOLUNTARY, BILLING_RETRY or PRODUCT_NOT_FOR_SALE.
        case expired
        /// A renewal failed and billing retry began (DID_FAIL_TO_RENEW).
        case billingRetry
        /// A renewal failed and a grace period began (DID_FAIL_TO_RENEW / GRACE_PERIOD).
        case gracePeriod
        /// The grace period ended without payment; retry continues.
        case gracePeriodExpired
        /// Billing recovered during retry or grace (DID_RENEW / BILLING_RECOVERY).
        case recovered
        /// A transaction was refunded and revoked.
        case refunded
        /// Auto-renew was turned on or off; `detail` is AUTO_RENEW_ENABLED or AUTO_RENEW_DISABLED.
        case autoRenewChanged
        /// A device finished a transaction.
        case finished
        /// A device restored purchases; `detail` is the number of transactions.
        case restored
        /// A switch or fault changed; `detail` says which.
        case settingsChanged
        /// The clock moved; `detail` is the duration.
        case clockAdvanced
        /// The catalog was read again (`tally sandbox reload`); `detail` counts the products and names those
        /// added and removed.
        case catalogReloaded
        /// The customer asked Apple for a refund (CONSUMPTION_REQUEST); `detail` is Apple's
        /// `consumptionRequestReason` (UNINTENDED_PURCHASE, FULFILLMENT_ISSUE, UNSATISFIED_WITH_PURCHASE, LEGAL, OTHER).
        case refundRequested
        /// The app's server sent consumption information for a refund request; `detail` is `v1` or `v2`.
        case consumptionInfoReceived
        /// Apple declined a refund request (REFUND_DECLINED).
        case refundDeclined
        /// Apple reversed a refund it had granted (REFUND_REVERSED).
        case refundReversed
        /// A subscription's renewal date was extended (RENEWAL_EXTENDED); `detail` is the days and the request id.
        case renewalExtended
        /// A mass extension skipped one subscription (RENEWAL_EXTENSION / FAILURE); `detail` is the request id.
        case renewalExtensionFailed
        /// A mass extension finished (RENEWAL_EXTENSION / SUMMARY); `detail` is the request id.
        case renewalExtensionSummary
        /// The app's server set the app account token of a purchase; `detail` is the token.
        case appAccountTokenSet
        /// A promotional offer or offer code redeemed on a subscription in force, applying from its next renewal,
        /// or with an upgrade (OFFER_REDEEMED; `detail` is the subtype, `UPGRADE` or `DOWNGRADE`, or nil).
        case offerRedeemed
        /// Offer codes were made (`tally sandbox offer-code create`); `detail` names the offer and the count.
        case offerCodesCreated
    }

    /// Position in the log, from 1.
    public var sequence: Int
    /// Sandbox time of the event.
    public var date: Date
    /// What happened.
    public var kind: Kind
    /// The account concerned ("" for store-wide events).
    public var account: String
    /// The device concerned, if any.
    public var device: String?
    /// The product concerned, if any.
    public var productId: String?
    /// The transaction concerned, if any.
    public var transactionId: String?
    /// Its subscription chain or original purchase, if any.
    public var originalTransactionId: String?
    /// The pending purchase concerned, if any.
    public var purchaseId: String?
    /// More: a subtype such as UPGRADE, an error message, a count.
    public var detail: String?

    /// Creates an event.
    public init(sequence: Int, date: Date, kind: Kind, account: String, device: String? = nil,
                productId: String? = nil, transactionId: String? = nil, originalTransactionId: String? = nil,
                purchaseId: String? = nil, detail: String? = nil) {
        self.sequence = sequence
        self.date = date
        self.kind = kind
        self.account = account
        self.device = device
        self.productId = productId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.purchaseId = purchaseId
        self.detail = detail
    }
}
