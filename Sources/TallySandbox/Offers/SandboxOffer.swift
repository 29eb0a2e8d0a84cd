import Foundation
import TallyCore
import TallyCrypto

/// A subscription offer a sandbox purchase asks for, as StoreKit's purchase options carry it.
public enum SandboxOffer: Sendable, Hashable {
    /// A promotional offer with a V1 signature (`promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`):
    /// the DER ECDSA signature, the nonce and the millisecond timestamp it signs.
    case promotional(offerId: String, keyId: String, nonce: String, signature: Data, timestamp: Int64)
    /// A promotional offer with a V2 compact JWS (`promotionalOffer(_:compactJWS:)`).
    case promotionalJWS(offerId: String, jws: String)
    /// A win-back offer (`winBackOffer(_:)`).
    case winBack(offerId: String)
    /// An introductory offer eligibility JWS (`introductoryOfferEligibility(compactJWS:)`).
    case introductoryEligibility(jws: String)
}

/// The in-app purchase keys offer signatures are checked with, and the wall clock their age is judged by (Apple
/// judges a signature's timestamp by real time, not by the sandbox's accelerated subscription clock).
public struct SandboxOfferKeys: Sendable {
    /// Public key and issuer id by key id.
    public var keys: [String: (key: PublicKey, issuerId: String)]
    /// The real time now.
    public var wallClock: Date

    /// Keys as given.
    public init(keys: [String: (key: PublicKey, issuerId: String)], wallClock: Date) {
        self.keys = keys
        self.wallClock = wallClock
    }

    /// The keys `tally sandbox api-key` registered in `directory`; none when none was made or the file is unreadable.
    public init(directory: URL, wallClock: Date = Date()) {
        self.init(keys: (try? SandboxAPIKeys(directory: directory).verificationKeys()) ?? [:], wallClock: wallClock)
    }
}

/// What a checked offer grants a purchase; kept with a pending purchase so an approval applies it.
enum OfferGrant: Sendable, Hashable, Codable {
    /// A promotional, win-back or offer-code offer to apply.
    case offer(SubscriptionOffer)
    /// The introductory offer allowed, or denied, by an eligibility JWS whatever the group's history says.
    case introductory(allowed: Bool)

    /// The offer to apply, if any.
    var offer: SubscriptionOffer? {
        if case .offer(let offer) = self { return offer }
        return nil
    }
}

/// An offer code made by `tally sandbox offer-code create`: one use, for one offer of one product.
public struct SandboxOfferCode: Sendable, Codable, Hashable {
    /// The code the customer types.
    public var code: String
    /// The product the offer belongs to.
    public var productId: String
    /// The offer's id (its reference name, as App Store transactions carry it in `offerIdentifier`).
    public var offerId: String
    /// When it was made (sandbox clock).
    public var createdDate: Date
    /// The account that redeemed it, nil while unused.
    public var redeemedBy: String?
    /// When it was redeemed.
    public var redeemedDate: Date?
}
