import Foundation
import TallyCore


extension Store {
    /// Buys `productId` with its promotional offer `offerId`, the signature made by the app's server: the link's
    /// ``ServerLink/promotionalOfferSigner`` when it has one (the app's backend, holding the secret key), else
    /// `tally serve` itself with the customer's token (`POST /v1/offers/promotional/signature`, allowed only for
    /// offers whose policy says `customerToken`). The in-app purchase key never reaches the app.
    ///
    /// - Throws: ``StoreError`` — `missingOfferParameters` without a server link or signer, `serverRefused` when
    ///   the server will not sign (`offer_not_allowed`, `offer_not_eligible`), `networkError` when it cannot be
    ///   reached, and everything ``purchase(_:quantity:appAccountToken:offer:context:)-(String,_,_,_,_)`` throws.
    public func purchase(_ productId: String, promotionalOffer offerId: String, quantity: Int = 1,
                         context: PurchaseContext = PurchaseContext()) async throws(StoreError) -> PurchaseOutcome {
        let token = await purchaseAccountToken()
        let request = PromotionalOfferRequest(productId: productId, offerId: offerId,
                                              appUserId: serverLink?.appUserId, appAccountToken: token)
        let signature: PromotionalOfferSignature
        if let signer = serverLink?.promotionalOfferSigner {
            do { signature = try await signer(request) } catch {
                throw failed(productId, StoreError.from(error, doing: "signing the offer \(offerId) of \(productId)"))
            }
        } else if let server {
            do { signature = try await server.promotionalOfferSignature(request).get() } catch {
                throw failed(productId, error)
            }
        } else {
            throw failed(productId, StoreError(.missingOfferParameters, "the promotional offer \(offerId) of "
                + "\(productId) needs a signature from the app's server: give the Store a ServerLink (with a "
                + "promotionalOfferSigner, or a server whose offers.promotional allows customerToken), or pass "
                + "the signature with purchase(_:offer:)"))
        }
        // The signature was made for `token` (nil included): the purchase carries it as is.
        return try await buy(productId, quantity: quantity, appAccountToken: token, tokenResolved: true,
                             offer: .promotional(id: offerId, signature: signature), context: context)
    }

    /// Buys `productId` with the introductory offer as the app's server decides it: the link's
    /// ``ServerLink/introductoryEligibilitySigner`` when it has one, else `tally serve` itself with the customer's
    /// token (`POST /v1/offers/introductory/eligibility`, allowed when `offers.introductoryEligibility.customerToken`
    /// is on). The server's JWS grants the offer to a customer its history finds eligible, even one whose App
    /// Store account had an introductory offer in the group before, and denies it otherwise.
    /// - Throws: as ``purchase(_:promotionalOffer:quantity:context:)``.
    public func purchaseWithServerIntroductoryEligibility(_ productId: String,
                                                          context: PurchaseContext = PurchaseContext())
        async throws(StoreError) -> PurchaseOutcome
    {
        let jws: String
        let known = record.history.transactions.last?.transactionId
        if let signer = serverLink?.introductoryEligibilitySigner {
            let request = IntroductoryEligibilityRequest(productId: productId, appUserId: serverLink?.appUserId,
                                                         transactionId: known)
            do { jws = try await signer(request) } catch {
                throw failed(productId, StoreError.from(error, doing: "the introductory offer eligibility of \(productId)"))
            }
        } else if let server {
            do { jws = try await server.introductoryEligibility(productId: productId, transactionId: known).get() } catch {
                throw failed(productId, error)
            }
        } else {
            throw failed(productId, StoreError(.missingOfferParameters, "the introductory offer eligibility of "
                + "\(productId) comes from the app's server: give the Store a ServerLink"))
        }
        return try await purchase(productId, offer: .introductoryEligibility(jws: jws), context: context)
    }

    /// Whether the customer's next purchase in subscription group `groupId` gets its introductory offer, as the
    /// store decides (StoreKit's `isEligibleForIntroOffer(for:)`); from the customer's history when the backend
    /// cannot tell (one introductory offer per group).
    public func isEligibleForIntroOffer(groupId: String) async -> Bool {
        if let answer = try? await backend.offerEligibility(groupId: groupId) { return answer.introductoryOffer }
        return state.isEligibleForIntroductoryOffer(groupId: groupId)
    }

    /// The win-back offers of subscription group `groupId` the customer may buy with now, best first (StoreKit's
    /// `RenewalInfo.eligibleWinBackOfferIDs`, iOS 18+), as catalog offers; from the customer's history when the
    /// backend cannot tell: every win-back offer of the group for a customer who lapsed in it, none otherwise.
    public func eligibleWinBackOffers(groupId: String) async -> [SubscriptionOffer] {
        let offers = catalog.products.filter { $0.subscription?.groupId == groupId }
            .flatMap { $0.subscription?.winBackOffers ?? [] }
        if let answer = try? await backend.offerEligibility(groupId: groupId) {
            return answer.winBackOfferIds.compactMap { id in offers.first { $0.id.map { $0.utf8.elementsEqual(id.utf8) } ?? false } }
        }
        return state.hasLapsed(groupId: groupId) ? offers : []
    }
}
