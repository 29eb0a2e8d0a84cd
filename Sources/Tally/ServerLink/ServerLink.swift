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
    /// The customer's id on the server, chosen by the app.
    public var appUserId: String
    /// The `appAccountToken` set on every purchase (see ``appAccountToken(for:)``).
    public var appAccountToken: UUID
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

    /// Creates a link.
    ///
    /// - Parameters:
    ///   - appAccountToken: the token to set on purchases; by default ``appAccountToken(for:)`` of `appUserId`,
    ///     the same on every device of the customer.
    ///   - customerToken: the app backend's customer tokens (see ``customerToken``); required by a server whose
    ///     `customers.requireToken` is on, unless the customer is anonymous.
    ///   - serverPublicKey: the server's signing key to pin (``serverPublicKey``).
    public init(url: URL, publicKey: String, appUserId: String, appAccountToken: UUID? = nil,
                retry: RetryPolicy = RetryPolicy(), requestTimeout: TimeInterval = 15,
                customerToken: (@Sendable (_ appUserId: String) async throws -> String?)? = nil,
                serverPublicKey: Data? = nil) {
        self.url = url
        self.publicKey = publicKey
        self.appUserId = appUserId
        self.appAccountToken = appAccountToken ?? Self.appAccountToken(for: appUserId)
        self.retry = retry
        self.requestTimeout = requestTimeout
        self.customerToken = customerToken
        self.serverPublicKey = serverPublicKey
    }

    /// The stable `appAccountToken` of a customer: a UUID (version 8, RFC 9562's custom layout) holding the
    /// 128-bit FNV-1a hash of `"tally.appAccountToken:" + appUserId`'s UTF-8 bytes. Every device computes the
    /// same token for the same `appUserId` without asking anyone, so the server can attribute App Store
    /// notifications to the customer. It is not a secret and not meant to hide the id (Apple asks that it
    /// carry no personal data: an `appUserId` that is personal data should be hashed by the app, or pass your
    /// own token to ``init(url:publicKey:appUserId:appAccountToken:retry:requestTimeout:customerToken:serverPublicKey:)``).
    public static func appAccountToken(for appUserId: String) -> UUID {
        var bytes = FNV1a128.hash(Array("tally.appAccountToken:\(appUserId)".utf8))
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // variant 10
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
