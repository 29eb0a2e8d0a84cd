import Foundation


/// The app's link to its `tally serve` (docs/server.md): with one, the engine posts every delivered transaction
/// to `POST /v1/customers/{appUserId}/transactions` and finishes it with the store only after the server
/// answered, and reads what the customer owns from `GET /v1/customers/{appUserId}` (see ``Store/stateSource``).
///
/// Configure it with the server's URL, the app's **public** key (it ships in the app; it may post transactions
/// and read state, never spend) and the customer's `appUserId`.
public struct ServerLink: Sendable {
    /// The server's base URL (`https://api.example.com`); the `/v1/…` routes are appended to it.
    public var url: URL
    /// A public key of the server's configuration (`tally serve key --role public`).
    public var publicKey: String
    /// The customer's id on the server, chosen by the app; empty (``init(url:publicKey:appUserId:appAccountToken:retry:requestTimeout:customerToken:serverPublicKey:appVersion:offeringsRefreshInterval:promotionalOfferSigner:)``
    /// without one) lets the store choose: the customer it spoke for last in its data directory, else a new
    /// anonymous id (`$tally:anon:` and 128 random bits, `AnonymousCustomerId`) kept there, so a purchase
    /// before sign-up has an owner (``Store/appUserId``, ``Store/logIn(_:)``).
    public var appUserId: String
    /// The app's own `appAccountToken` for the customer's purchases; nil (the default) lets the engine ask the
    /// server for the customer's minted token (`POST …/account-token`, once, then kept in the data directory).
    /// A token the app chooses carries no authority on the server unless the server minted it for this customer
    /// (docs/security.md, *Account tokens*): a purchase carrying another token goes to whoever posts it.
    public var appAccountToken: UUID?
    /// How a post the server could not take is retried.
    public var retry: RetryPolicy
    /// How long one request may take, in seconds, before it counts as "server unreachable".
    public var requestTimeout: TimeInterval
    /// The customer token for an `appUserId`, as the app's own backend issues it to the signed-in user (a JWT
    /// with `sub`, `aud`, `exp`; docs/server.md *Customer tokens*), sent with every request as
    /// `Tally-Customer-Token`. Called before each request, so cache tokens in the app and renew them before they
    /// expire; nil (the provider, or its answer) sends none. A provider that throws makes the request fail as an
    /// unreachable server would: the post is retried later, nothing is lost.
    public var customerToken: (@Sendable (_ appUserId: String) async throws -> String?)?
    /// The server's signing key (`tally serve signing-key` prints it), pinned: SubjectPublicKeyInfo DER or ANSI
    /// x9.63 (`04 ‖ X ‖ Y`) of a P-256 key. With it, every customer answer must carry a `Tally-Signature` by this
    /// key for this request's nonce (else it counts as "server unreachable" and is reported), and
    /// `server-state.json` is shown only while its kept signature verifies. Nil: answers and the saved state are
    /// believed as they come, and ``Store/diagnostics`` says so.
    public var serverPublicKey: Data?
    /// The app's version sent with ``Store/offerings(placement:)`` (`appVersion`, for the server's targeting by
    /// version range): by default the bundle's `CFBundleShortVersionString`; nil sends none.
    public var appVersion: String?
    /// At ``Store/refresh()``, a placement asked with ``Store/offerings(placement:)`` is asked again only when it
    /// was last asked at least this many seconds ago (0, the default: at every refresh; an unchanged answer is a
    /// `304` without a body).
    public var offeringsRefreshInterval: TimeInterval
    /// How ``Store/purchase(_:promotionalOffer:quantity:context:)`` gets a promotional offer signed: the app's own
    /// backend, which asks `tally serve` with the secret key. Nil (the default): the engine asks `tally serve`
    /// itself with the customer's token, which the server's policy must allow for the offer
    /// (`offers.promotional[].customerToken`, docs/server.md *Offers*).
    public var promotionalOfferSigner: PromotionalOfferSigner?
    /// How ``Store/purchaseWithServerIntroductoryEligibility(_:context:)`` gets the introductory offer eligibility
    /// JWS for a product and customer: the app's own backend, asking `tally serve` with the secret key. Nil: the
    /// engine asks `tally serve` with the customer's token (`offers.introductoryEligibility.customerToken`).
    public var introductoryEligibilitySigner: (@Sendable (IntroductoryEligibilityRequest) async throws -> String)?

    /// The bundle's `CFBundleShortVersionString`, the default ``appVersion``.
    public static var bundleVersion: String? {
        Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String
    }

    /// Creates a link.
    ///
    /// - Parameters:
    ///   - url: the server's base URL (``url``).
    ///   - publicKey: the server's public API key, which the app ships (``publicKey``).
    ///   - appUserId: the customer's id; nil (or empty) lets the store choose (``appUserId``).
    ///   - appAccountToken: the app's own token for purchases (see ``appAccountToken``); by default the token the
    ///     server mints for the customer, which it hands only with a customer token, the secret key, or to an
    ///     anonymous id — without one, purchases carry no token.
    ///   - retry: the back-off for posts the server did not take (``retry``).
    ///   - requestTimeout: seconds to wait for one answer of the server (``requestTimeout``).
    ///   - customerToken: the app backend's customer tokens (see ``customerToken``); required by a server whose
    ///     `customers.requireToken` is on, unless the customer is anonymous.
    ///   - serverPublicKey: the server's signing key to pin (``serverPublicKey``).
    ///   - appVersion: the app's version for offerings targeting (``appVersion``).
    ///   - offeringsRefreshInterval: see ``offeringsRefreshInterval``.
    ///   - promotionalOfferSigner: see ``promotionalOfferSigner``.
    public init(url: URL, publicKey: String, appUserId: String? = nil, appAccountToken: UUID? = nil,
                retry: RetryPolicy = RetryPolicy(), requestTimeout: TimeInterval = 15,
                customerToken: (@Sendable (_ appUserId: String) async throws -> String?)? = nil,
                serverPublicKey: Data? = nil, appVersion: String? = ServerLink.bundleVersion,
                offeringsRefreshInterval: TimeInterval = 0, promotionalOfferSigner: PromotionalOfferSigner? = nil) {
        self.promotionalOfferSigner = promotionalOfferSigner
        self.appVersion = appVersion
        self.offeringsRefreshInterval = offeringsRefreshInterval
        self.url = url
        self.publicKey = publicKey
        self.appUserId = appUserId ?? ""
        self.appAccountToken = appAccountToken
        self.retry = retry
        self.requestTimeout = requestTimeout
        self.customerToken = customerToken
        self.serverPublicKey = serverPublicKey
    }
}
