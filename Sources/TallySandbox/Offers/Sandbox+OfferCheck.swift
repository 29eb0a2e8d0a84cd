import Foundation
import TallyCore
import TallyCrypto

extension Sandbox {
    /// Checks an offer for a purchase of `entry` by `account` as the App Store does, and records its nonce.
    /// Refusals are Apple's purchase errors: `invalidOfferIdentifier` (not an offer of the product),
    /// `invalidOfferSignature` (the signature does not verify with a registered key, names another product, offer,
    /// bundle or token, is older than 24 hours, or its nonce was used before), `invalidOfferPrice` (the offer
    /// costs more per period than the product) and `ineligibleForOffer` (a win-back offer for a customer who did
    /// not lapse, or redeemed it before).
    mutating func checkOffer(_ offer: SandboxOffer, for entry: IndexedProduct, account: String,
                             appAccountToken: String?, keys: SandboxOfferKeys) throws(SandboxError) -> OfferGrant {
        let product = entry.product
        guard product.kind == .autoRenewable, let subscription = product.subscription else {
            throw SandboxError(.invalidOfferIdentifier, "'\(product.id)' is not an auto-renewable subscription: it has no offers")
        }
        switch offer {
        case .promotional(let offerId, let keyId, let nonce, let signature, let timestamp):
            let found = try catalogOffer(offerId, in: subscription.promotionalOffers, kind: "promotional", of: product)
            guard let key = keys.keys[keyId] else { throw Self.unknownKey(keyId) }
            let payload = OfferSignatureRules.v1Payload(
                bundleId: configuration.bundleId, keyId: keyId, productId: product.id, offerIdentifier: offerId,
                appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
            guard ECDSA.verify(digest: ECDSA.sha256(Array(payload.utf8)), derSignature: Array(signature), key: key.key) else {
                throw SandboxError(.invalidOfferSignature, "the signature of offer '\(offerId)' does not verify with key '\(keyId)' for bundle '\(configuration.bundleId)', product '\(product.id)', this app account token, nonce and timestamp")
            }
            try takeNonce(nonce, signedAt: Date(millisecondsSince1970: timestamp), keys: keys)
            try checkPrice(found, of: entry)
            return .offer(found)
        case .promotionalJWS(let offerId, let jws):
            let found = try catalogOffer(offerId, in: subscription.promotionalOffers, kind: "promotional", of: product)
            let claims = try verifiedClaims(jws, audience: OfferSignatureRules.promotionalAudience, product: product, keys: keys)
            guard claims.offerIdentifier.map({ $0.utf8.elementsEqual(offerId.utf8) }) == true else {
                throw SandboxError(.invalidOfferSignature, "the JWS is for offer '\(claims.offerIdentifier ?? "none")', not '\(offerId)'")
            }
            if let transactionId = claims.transactionId,
               !(accounts[account]?.transactions.contains { $0.transactionId == transactionId || $0.originalTransactionId == transactionId } ?? false) {
                throw SandboxError(.invalidOfferSignature, "the JWS names transaction \(transactionId), which is not the buying account's")
            }
            try takeNonce(claims.nonce, signedAt: claims.issuedAt, keys: keys)
            try checkPrice(found, of: entry)
            return .offer(found)
        case .winBack(let offerId):
            let found = try catalogOffer(offerId, in: subscription.winBackOffers, kind: "win-back", of: product)
            guard found.isEligible != false else {
                throw SandboxError(.ineligibleForOffer, "the .storekit file marks win-back offer '\(offerId)' isEligible false: the test customer may not have it")
            }
            guard state(account: account).hasLapsed(groupId: subscription.groupId) else {
                throw SandboxError(.ineligibleForOffer, "win-back offer '\(offerId)' is only for customers who lapsed in group '\(subscription.groupId)': account '\(account)' has not")
            }
            if accounts[account]?.redeemedWinBackOffers.contains(offerId) == true {
                throw SandboxError(.ineligibleForOffer, "account '\(account)' redeemed win-back offer '\(offerId)' before")
            }
            try checkPrice(found, of: entry)
            return .offer(found)
        case .introductoryEligibility(let jws):
            let claims = try verifiedClaims(jws, audience: OfferSignatureRules.eligibilityAudience, product: product, keys: keys)
            guard let allowed = claims.allowIntroductoryOffer else {
                throw SandboxError(.invalidOfferSignature, "the eligibility JWS has no boolean allowIntroductoryOffer claim")
            }
            guard subscription.introductoryOffer != nil || !allowed else {
                throw SandboxError(.invalidOfferIdentifier, "'\(product.id)' has no introductory offer to allow")
            }
            try takeNonce(claims.nonce, signedAt: claims.issuedAt, keys: keys)
            return .introductory(allowed: allowed)
        }
    }

    /// The ids of the win-back offers of group `groupId` the account may buy with now (StoreKit's
    /// `eligibleWinBackOfferIDs`): every win-back offer of the group's products the account did not redeem, for
    /// an account that lapsed in the group; none otherwise.
    public func eligibleWinBackOfferIds(groupId: String, account: String = "default") -> [String] {
        guard state(account: account).hasLapsed(groupId: groupId) else { return [] }
        let redeemed = accounts[account]?.redeemedWinBackOffers ?? []
        return catalog.products.filter { $0.subscription?.groupId == groupId }
            .flatMap { $0.subscription?.winBackOffers ?? [] }.filter { $0.isEligible != false }
            .compactMap(\.id).filter { !redeemed.contains($0) }
    }

    /// Whether the account's next purchase in group `groupId` gets the introductory offer (once per group).
    public func isEligibleForIntroOffer(groupId: String, account: String = "default") -> Bool {
        !(accounts[account]?.introductoryOfferUsedGroups.contains(groupId) ?? false)
    }

    // MARK: - Parts

    /// The claims of an offer JWS the sandbox reads.
    private struct OfferClaims: Decodable {
        var iss: String?
        var aud: String?
        var bid: String?
        var iat: Int64?
        var nonce: String?
        var productId: String?
        var offerIdentifier: String?
        var transactionId: String?
        var allowIntroductoryOffer: Bool?
    }

    /// A JWS's checked claims: its signature by a registered key, `iss` the key's issuer, `aud`, `bid` and
    /// `productId` as expected, an `iat` and a `nonce`.
    private func verifiedClaims(_ jws: String, audience: String, product: CatalogProduct,
                                keys: SandboxOfferKeys) throws(SandboxError)
        -> (nonce: String, issuedAt: Date, offerIdentifier: String?, transactionId: String?, allowIntroductoryOffer: Bool?)
    {
        let verified: KeyedJWS
        switch KeyedJWS.verify(jws, key: { keys.keys[$0] }) {
        case .success(let value): verified = value
        case .failure(let failure) where failure.reason == .unknownKey:
            throw SandboxError(.invalidOfferSignature, "\(failure.message): make one with 'tally sandbox api-key' and sign with it")
        case .failure(let failure): throw SandboxError(.invalidOfferSignature, "the offer JWS is refused: \(failure.message)")
        }
        guard let claims = try? JSONDecoder().decode(OfferClaims.self, from: verified.claims) else {
            throw SandboxError(.invalidOfferSignature, "the offer JWS's claims are not the JSON object Apple's creators make")
        }
        func same(_ value: String?, _ expected: String) -> Bool { value.map { $0.utf8.elementsEqual(expected.utf8) } ?? false }
        guard same(claims.aud, audience) else {
            throw SandboxError(.invalidOfferSignature, "the JWS's aud is '\(claims.aud ?? "none")', not '\(audience)'")
        }
        guard same(claims.iss, verified.issuerId) else {
            throw SandboxError(.invalidOfferSignature, "the JWS's iss is not the issuer of key '\(verified.keyId)'")
        }
        guard same(claims.bid, configuration.bundleId) else {
            throw SandboxError(.invalidOfferSignature, "the JWS is for bundle '\(claims.bid ?? "none")', not '\(configuration.bundleId)'")
        }
        guard same(claims.productId, product.id) else {
            throw SandboxError(.invalidOfferSignature, "the JWS is for product '\(claims.productId ?? "none")', not '\(product.id)'")
        }
        guard let iat = claims.iat, let nonce = claims.nonce, !nonce.isEmpty else {
            throw SandboxError(.invalidOfferSignature, "the JWS lacks its iat or nonce claim")
        }
        return (nonce, Date(timeIntervalSince1970: TimeInterval(iat)), claims.offerIdentifier, claims.transactionId,
                claims.allowIntroductoryOffer)
    }

    /// The catalog offer `offerId` (compared as bytes) among `offers`.
    private func catalogOffer(_ offerId: String, in offers: [SubscriptionOffer], kind: String,
                              of product: CatalogProduct) throws(SandboxError) -> SubscriptionOffer {
        guard !offerId.isEmpty else { throw SandboxError(.missingOfferParameters, "the offer id is empty") }
        guard let found = offers.first(where: { $0.id.map { $0.utf8.elementsEqual(offerId.utf8) } ?? false }) else {
            throw SandboxError(.invalidOfferIdentifier, "'\(product.id)' has no \(kind) offer '\(offerId)' in the .storekit file")
        }
        return found
    }

    /// A signature younger than 24 hours (and not from the future beyond a minute) whose nonce is new: the nonce
    /// is kept until the signature could no longer be used anyway.
    private mutating func takeNonce(_ nonce: String, signedAt: Date, keys: SandboxOfferKeys) throws(SandboxError) {
        let age = keys.wallClock.timeIntervalSince(signedAt)
        guard age <= OfferSignatureRules.lifetime else {
            throw SandboxError(.invalidOfferSignature, "the offer was signed \(Int(age / 3_600)) hours ago; a signature is good for 24 hours")
        }
        guard age >= -60 else { throw SandboxError(.invalidOfferSignature, "the offer's timestamp is in the future") }
        let key = nonce.lowercased()
        usedOfferNonces = usedOfferNonces.filter { keys.wallClock.timeIntervalSince($0.value) <= OfferSignatureRules.lifetime }
        guard usedOfferNonces[key] == nil else {
            throw SandboxError(.invalidOfferSignature, "the offer's nonce \(key) was used before: each signature buys once")
        }
        usedOfferNonces[key] = signedAt
    }

    /// An offer that costs no more per period than the product (Apple refuses an offer whose price is not valid).
    private func checkPrice(_ offer: SubscriptionOffer, of entry: IndexedProduct) throws(SandboxError) {
        guard offer.price >= 0, IndexedProduct.millis(offer.price) <= entry.priceMillis || offer.paymentMode == .payUpFront else {
            throw SandboxError(.invalidOfferPrice, "offer '\(offer.id ?? "")' costs \(offer.price), more than '\(entry.product.id)' itself")
        }
    }

    private static func unknownKey(_ keyId: String) -> SandboxError {
        SandboxError(.invalidOfferSignature, "no in-app purchase key '\(keyId.prefix(64))' is registered with the sandbox: make one with 'tally sandbox api-key' and sign with it")
    }
}
