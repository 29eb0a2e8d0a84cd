import Foundation


/// What Apple's subscription offer signatures sign, in one place for the server that makes them and the sandbox
/// that checks them (Apple's "Generating a signature for promotional offers", and the JWS creators of
/// app-store-server-library).
public enum OfferSignatureRules {
    /// The `aud` of a promotional offer V2 JWS (`PromotionalOfferV2SignatureCreator`).
    public static let promotionalAudience = "promotional-offer"
    /// The `aud` of an introductory offer eligibility JWS (`IntroductoryOfferEligibilitySignatureCreator`).
    public static let eligibilityAudience = "introductory-offer-eligibility"
    /// How long a signature is accepted after its timestamp (`timestamp`, `iat`): 24 hours.
    public static let lifetime: TimeInterval = 24 * 3_600

    /// The string a V1 promotional offer signature signs (ECDSA P-256 with SHA-256 over its UTF-8): bundle id,
    /// key id, product id, offer id, app account token (lowercase, empty for none), nonce (lowercase) and the
    /// millisecond timestamp, joined by U+2063 INVISIBLE SEPARATOR.
    public static func v1Payload(bundleId: String, keyId: String, productId: String, offerIdentifier: String,
                                 appAccountToken: String?, nonce: String, timestamp: Int64) -> String {
        [bundleId, keyId, productId, offerIdentifier, appAccountToken?.lowercased() ?? "", nonce.lowercased(),
         String(timestamp)].joined(separator: "\u{2063}")
    }
}
