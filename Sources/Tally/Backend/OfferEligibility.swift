import Foundation


/// Which offers of one subscription group a customer may have.
public struct OfferEligibility: Sendable, Hashable {
    /// Whether the group's introductory offer applies to the customer's next purchase in it (one per group, unless
    /// an introductory offer eligibility JWS says otherwise).
    public var introductoryOffer: Bool
    /// The ids of the win-back offers the customer may buy with, best first (StoreKit's
    /// `RenewalInfo.eligibleWinBackOfferIDs`); empty for a customer who has not lapsed.
    public var winBackOfferIds: [String]

    /// Creates an answer.
    public init(introductoryOffer: Bool, winBackOfferIds: [String]) {
        self.introductoryOffer = introductoryOffer
        self.winBackOfferIds = winBackOfferIds
    }
}
