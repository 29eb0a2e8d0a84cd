import Foundation


/// The subscription offer a purchase applies (StoreKit 2's offer purchase options).
///
/// A promotional offer needs a signature made with the app's in-app purchase key, which never ships in the app:
/// the app's server makes it (`tally serve`, `POST /v1/offers/promotional/signature`) and the app passes it here,
/// or the engine asks for it through ``Store/purchase(_:promotionalOffer:quantity:context:)``'s signer.
public enum PurchaseOffer: Sendable, Hashable {
    /// A promotional offer (`adHocOffers` of the `.storekit` file) with its signature:
    /// `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)` or, for a JWS,
    /// `promotionalOffer(_:compactJWS:)`.
    case promotional(id: String, signature: PromotionalOfferSignature)
    /// A win-back offer for a lapsed subscriber (`Product.PurchaseOption.winBackOffer(_:)`, iOS 18+); the store
    /// refuses it to a customer it does not find eligible (``StoreError/Code/ineligibleForOffer``).
    case winBack(id: String)
    /// The introductory offer as an introductory offer eligibility JWS made by the app's server allows or denies
    /// it (`Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`), overriding the store's own rule of
    /// one introductory offer per subscription group.
    case introductoryEligibility(jws: String)

    /// The offer id, nil for the introductory offer.
    public var offerId: String? {
        switch self {
        case .promotional(let id, _), .winBack(let id): id
        case .introductoryEligibility: nil
        }
    }
}

/// A promotional offer's signature, made by the app's server with its in-app purchase key.
public enum PromotionalOfferSignature: Sendable, Hashable {
    /// The V1 signature: ECDSA P-256 with SHA-256 over the bundle id, key id, product id, offer id, app account
    /// token, nonce and timestamp joined by U+2063 (`v1` of `tally serve`'s answer). The purchase must carry the
    /// same `appAccountToken` the signature was made for.
    case v1(keyId: String, nonce: UUID, signature: Data, timestamp: Int64)
    /// The V2 compact JWS (`v2` of `tally serve`'s answer; claims `aud: "promotional-offer"`, `bid`, `productId`,
    /// `offerIdentifier`, `nonce`, `iat`).
    case jws(String)

    /// The signature in an answer of `tally serve`'s `POST /v1/offers/promotional/signature`
    /// (`{"v1": {"keyIdentifier", "nonce", "timestamp", "signature"}, "v2": "…"}`), as an app's backend relays it:
    /// V1 when the purchase carries an app account token (the V1 signature binds it), else the V2 JWS. Nil for an
    /// answer that does not decode.
    public init?(tallyServeAnswer data: Data, appAccountTokenBound: Bool) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        if !appAccountTokenBound, let jws = object["v2"] as? String, !jws.isEmpty {
            self = .jws(jws)
            return
        }
        guard let v1 = object["v1"] as? [String: Any], let keyId = v1["keyIdentifier"] as? String,
              let nonceText = v1["nonce"] as? String, let nonce = UUID(uuidString: nonceText),
              let timestamp = (v1["timestamp"] as? NSNumber)?.int64Value,
              let signatureText = v1["signature"] as? String, let signature = Data(base64Encoded: signatureText)
        else { return nil }
        self = .v1(keyId: keyId, nonce: nonce, signature: signature, timestamp: timestamp)
    }
}

/// What the app's signer is asked for: a promotional offer of a product, for the customer buying.
public struct PromotionalOfferRequest: Sendable, Hashable {
    /// The subscription's product id.
    public var productId: String
    /// The promotional offer id.
    public var offerId: String
    /// The customer (the server link's `appUserId`), nil without a server link.
    public var appUserId: String?
    /// The app account token the purchase will carry, which a V1 signature must be made for.
    public var appAccountToken: UUID?

    /// Creates a request.
    public init(productId: String, offerId: String, appUserId: String?, appAccountToken: UUID?) {
        self.productId = productId
        self.offerId = offerId
        self.appUserId = appUserId
        self.appAccountToken = appAccountToken
    }
}

/// What the app's eligibility signer is asked for: the introductory offer eligibility of a product for the customer.
public struct IntroductoryEligibilityRequest: Sendable, Hashable {
    /// The subscription's product id.
    public var productId: String
    /// The customer (the server link's `appUserId`).
    public var appUserId: String?
    /// A transaction of the device's App Store account the engine knows, for the JWS's `transactionId`; nil when
    /// it knows none.
    public var transactionId: String?

    /// Creates a request.
    public init(productId: String, appUserId: String?, transactionId: String?) {
        self.productId = productId
        self.appUserId = appUserId
        self.transactionId = transactionId
    }
}

/// How the app gets a promotional offer signed: typically a call to its own backend, which asks `tally serve`
/// with the secret key (`POST /v1/offers/promotional/signature`) and hands back the answer; the key never
/// reaches the app. ``ServerLink`` signs through `tally serve` with the customer's token when the server's
/// policy allows it (`offers.promotional[].customerToken`).
public typealias PromotionalOfferSigner = @Sendable (PromotionalOfferRequest) async throws -> PromotionalOfferSignature
