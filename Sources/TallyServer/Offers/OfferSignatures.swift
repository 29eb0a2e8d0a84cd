import Foundation
import TallyCore
import TallyCrypto

/// The signatures Apple accepts for offers, made with the in-app purchase key of `appStoreServerAPI`: the V1
/// promotional offer signature, and the compact JWS forms of Apple's `PromotionalOfferV2SignatureCreator` and
/// `IntroductoryOfferEligibilitySignatureCreator` (ES256, header `kid` and `typ: JWT`).
struct OfferSignatures: Sendable {
    /// The in-app purchase key's id.
    var keyId: String
    /// The issuer id (`iss`).
    var issuerId: String
    /// The app's bundle id (`bid`, and the V1 string's first part).
    var bundleId: String
    /// The in-app purchase key.
    var key: PrivateKey

    /// A V1 promotional offer signature with its nonce and millisecond timestamp.
    struct V1: Sendable, Hashable {
        /// The key id the app passes on (`keyID`).
        var keyIdentifier: String
        /// A fresh lowercase UUID.
        var nonce: String
        /// Milliseconds since 1970.
        var timestamp: Int64
        /// Base64 of the DER ECDSA signature.
        var signature: String
    }

    /// Signs a V1 promotional offer at `now` with a fresh nonce.
    func v1(productId: String, offerIdentifier: String, appAccountToken: String?, now: Date) throws(CryptoError) -> V1 {
        let nonce = UUID().uuidString.lowercased()
        let timestamp = Int64((now.timeIntervalSince1970 * 1_000).rounded(.down))
        let payload = OfferSignatureRules.v1Payload(bundleId: bundleId, keyId: keyId, productId: productId,
                                     offerIdentifier: offerIdentifier, appAccountToken: appAccountToken,
                                     nonce: nonce, timestamp: timestamp)
        let der = try key.signature(digest: ECDSA.sha256(Array(payload.utf8)))
        return V1(keyIdentifier: keyId, nonce: nonce, timestamp: timestamp, signature: Data(der).base64EncodedString())
    }

    /// The V2 promotional offer JWS (`aud` `promotional-offer`).
    func v2(productId: String, offerIdentifier: String, transactionId: String?, now: Date) throws(CryptoError) -> String {
        try jws(audience: OfferSignatureRules.promotionalAudience, now: now) { writer in
            writer.field("productId", productId)
            writer.field("offerIdentifier", offerIdentifier)
            if let transactionId { writer.field("transactionId", transactionId) }
        }
    }

    /// The introductory offer eligibility JWS (`aud` `introductory-offer-eligibility`).
    func eligibility(productId: String, allowIntroductoryOffer: Bool, transactionId: String, now: Date)
        throws(CryptoError) -> String
    {
        try jws(audience: OfferSignatureRules.eligibilityAudience, now: now) { writer in
            writer.field("productId", productId)
            writer.field("allowIntroductoryOffer", allowIntroductoryOffer)
            writer.field("transactionId", transactionId)
        }
    }

    /// A compact JWS with the claims every creator of Apple's library adds (`bid`, `iss`, `aud`, `iat` in
    /// seconds, a fresh `nonce`) after the feature's own.
    private func jws(audience: String, now: Date, claims: (inout JSONWriter) -> Void) throws(CryptoError) -> String {
        let header = JSONWriter.object { writer in
            writer.field("alg", "ES256")
            writer.field("kid", keyId)
            writer.field("typ", "JWT")
        }
        let payload = JSONWriter.object { writer in
            claims(&writer)
            writer.field("bid", bundleId)
            writer.field("iss", issuerId)
            writer.field("aud", audience)
            writer.field("iat", Int(now.timeIntervalSince1970.rounded(.down)))
            writer.field("nonce", UUID().uuidString.lowercased())
        }
        return try JWSSigner(key: key, chain: []).signed(payload: payload, header: String(decoding: header, as: UTF8.self))
    }
}
