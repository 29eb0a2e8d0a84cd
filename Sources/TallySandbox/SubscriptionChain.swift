import Foundation
import TallyCore

/// One account's subscription in one group: the chain of transactions sharing an `originalTransactionId`,
/// where it stands, and its renewal information.
struct SubscriptionChain: Sendable, Codable, Hashable {
    /// Where the chain stands.
    enum Phase: String, Sendable, Codable, Hashable {
        /// In a paid (or offer) period; renews or expires at `expiresDate`.
        case active
        /// A renewal failed; retrying until `retryEnd` (in grace until the grace date while `inGrace`).
        case billingRetry
        /// Ended.
        case expired
        /// The latest transaction was refunded.
        case revoked
    }

    var groupId: String
    var originalTransactionId: String
    var originalPurchaseDate: Date
    var latestTransactionId: String
    var productId: String
    var expiresDate: Date
    var phase: Phase
    var inGrace = false
    var retryEnd: Date?
    /// Introductory pay-as-you-go periods still to bill at the offer price.
    var offerPeriodsLeft = 0
    /// The offer whose pay-as-you-go periods ``offerPeriodsLeft`` counts; nil: the introductory offer (chains
    /// saved before other offers were kept).
    var offer: SubscriptionOffer?
    /// A promotional or offer-code offer redeemed during the period in force: it applies at the next renewal.
    var scheduledOffer: SubscriptionOffer?
    var renewalInfo: RenewalInfo
    /// Renewal-date extensions, oldest first; nil in chains saved before they were kept.
    var extensions: [SandboxRenewalExtension]?

    /// The product that renews next.
    var nextProductId: String { renewalInfo.autoRenewProductId ?? productId }

    /// When something is next scheduled to happen to the chain, if anything.
    var nextEventDate: Date? {
        switch phase {
        case .active: expiresDate
        case .billingRetry: inGrace ? (renewalInfo.gracePeriodExpiresDate ?? retryEnd) : retryEnd
        case .expired, .revoked: nil
        }
    }
}
