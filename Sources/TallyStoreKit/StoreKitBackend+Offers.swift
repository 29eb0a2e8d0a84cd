#if canImport(StoreKit)
import Foundation
import StoreKit
import Tally

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension StoreKitBackend {
    /// The purchase options that apply `offer` to a purchase of `product`:
    /// - a promotional offer with a V1 signature: `.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`
    ///   (deprecated in iOS 26 for the JWS form, still honoured);
    /// - a promotional offer with a compact JWS: `promotionalOffer(_:compactJWS:)` (back-deployed to iOS 15);
    /// - a win-back offer: `.winBackOffer(_:)` with the product's `subscription?.winBackOffers` entry of that id
    ///   (iOS 18 / macOS 15 / tvOS 18 / watchOS 11 / visionOS 2);
    /// - an introductory offer eligibility JWS: `.introductoryOfferEligibility(compactJWS:)` (back-deployed to
    ///   iOS 15).
    ///
    /// - Throws: ``StoreError`` — `ineligibleForOffer` for a win-back offer below iOS 18 (StoreKit has no win-back
    ///   offers there), `invalidOfferIdentifier` for a win-back offer id the product does not have,
    ///   `invalidOfferSignature` for a V1 timestamp this platform's `Int` cannot hold.
    static func offerOptions(_ offer: PurchaseOffer, of product: StoreKit.Product,
                             doing action: String) throws(StoreError) -> [StoreKit.Product.PurchaseOption] {
        switch offer {
        case .promotional(let id, .v1(let keyId, let nonce, let signature, let timestamp)):
            guard let time = Int(exactly: timestamp) else {
                throw StoreError(.invalidOfferSignature, "\(action): the promotional offer \(id)'s timestamp "
                    + "\(timestamp) does not fit this platform's Int")
            }
            return [.promotionalOffer(offerID: id, keyID: keyId, nonce: nonce, signature: signature, timestamp: time)]
        case .promotional(let id, .jws(let jws)):
            return StoreKit.Product.PurchaseOption.promotionalOffer(id, compactJWS: jws)
        case .winBack(let id):
            if #available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                return [try winBackOption(id, of: product, doing: action)]
            }
            throw StoreError(.ineligibleForOffer, "\(action): the win-back offer \(id) needs iOS 18, macOS 15, "
                + "tvOS 18, watchOS 11 or visionOS 2 (StoreKit has no win-back offers before)")
        case .introductoryEligibility(let jws):
            return [.introductoryOfferEligibility(compactJWS: jws)]
        }
    }

    /// `.winBackOffer(_:)` with the product's win-back offer `id`.
    @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    private static func winBackOption(_ id: String, of product: StoreKit.Product,
                                      doing action: String) throws(StoreError) -> StoreKit.Product.PurchaseOption {
        guard let subscription = product.subscription else {
            throw StoreError(.invalidOfferIdentifier, "\(action): the win-back offer \(id): \(product.id) is not an "
                + "auto-renewable subscription")
        }
        guard let found = subscription.winBackOffers.first(where: { $0.id == id }) else {
            let known = subscription.winBackOffers.compactMap(\.id)
            throw StoreError(.invalidOfferIdentifier, "\(action): \(product.id) has no win-back offer \(id) (StoreKit "
                + "lists " + (known.isEmpty ? "none" : known.joined(separator: ", ")) + ")")
        }
        return .winBackOffer(found)
    }

    /// StoreKit's answer for subscription group `groupId`: `Product.SubscriptionInfo.isEligibleForIntroOffer(for:)`
    /// and, from iOS 18 / macOS 15 / tvOS 18 / watchOS 11 / visionOS 2, the `eligibleWinBackOfferIDs` of each
    /// renewal info StoreKit verified among the group's `status(for:)` (in StoreKit's order, each id once; an
    /// unverified one is left out and reported). Before iOS 18 no win-back offer is eligible.
    ///
    /// - Throws: ``StoreError`` when StoreKit cannot read the group's statuses (the engine then decides from the
    ///   customer's history).
    public func offerEligibility(groupId: String) async throws -> OfferEligibility? {
        let introductory = await StoreKit.Product.SubscriptionInfo.isEligibleForIntroOffer(for: groupId)
        var winBack: [String] = []
        if #available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            let statuses: [StoreKit.Product.SubscriptionInfo.Status]
            do { statuses = try await StoreKit.Product.SubscriptionInfo.status(for: groupId) } catch {
                throw Self.storeError(error, doing: "reading the win-back offers of subscription group \(groupId)")
            }
            for status in statuses {
                guard case .verified(let info) = status.renewalInfo else {
                    leftOut("subscription group \(groupId): StoreKit could not verify the renewal info of chain "
                        + "\(status.renewalInfo.unsafePayloadValue.originalTransactionID); its win-back offers are "
                        + "left out")
                    continue
                }
                for id in info.eligibleWinBackOfferIDs where !winBack.contains(id) { winBack.append(id) }
            }
        }
        return OfferEligibility(introductoryOffer: introductory, winBackOfferIds: winBack)
    }
}
#endif
