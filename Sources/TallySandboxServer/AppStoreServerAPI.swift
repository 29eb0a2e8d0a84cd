import Foundation
import Synchronization
import TallyCore
import TallyCrypto
import TallyHTTP
import TallySandbox

/// The App Store Server API played by the sandbox in a data directory: Apple's paths, parameters, JSON fields and
/// error bodies (../shared/docs/app-store-server-api.md), answered from the sandbox's state, with every
/// transaction and renewal info signed by the sandbox's CA. Requests must carry a JWT signed with an in-app
/// purchase key registered by `tally sandbox api-key` (``SandboxAPIKeys``).
///
/// Served so far: Get Transaction Info, Get Transaction History (v1 and v2), Get All Subscription Statuses;
/// Get Notification History, Request a Test Notification, Get Test Notification Status (AppStoreServerAPI+Notifications.swift).
public final class AppStoreServerAPI: Sendable {
    /// The sandbox's data directory.
    public let directory: URL
    /// Requests per second one key may make (nil: no limit), answered 429 `RateLimitExceededError` beyond.
    public let requestsPerSecond: Double?
    let sandboxDirectory: SandboxDirectory
    let signer: SandboxSigner
    let keys: SandboxAPIKeys
    let wallClock: @Sendable () -> Date
    private let buckets = Mutex<[String: (tokens: Double, at: Date)]>([:])

    /// The API over the sandbox in `directory` (its CA is created when missing).
    public init(directory: URL, requestsPerSecond: Double? = nil,
                wallClock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.directory = directory
        self.requestsPerSecond = requestsPerSecond
        self.wallClock = wallClock
        sandboxDirectory = SandboxDirectory(url: directory)
        let sandbox = try sandboxDirectory.load()
        signer = try SandboxCertificateAuthority.loadOrGenerate(in: directory, now: sandbox.now).signer()
        keys = SandboxAPIKeys(directory: directory)
    }

    /// The HTTP handler: every request answered, never a crash.
    public var handler: @Sendable (HTTPRequest) -> HTTPResponse {
        { [self] request in handle(request) }
    }

    /// Answers one request.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let token = try authorize(request)
            try takeToken(for: token.keyId)
            return try route(request, token: token)
        } catch let error as AppStoreAPIError {
            return error.response
        } catch {
            return AppStoreAPIError.generalInternal.response
        }
    }

    /// The token of `request`, checked against the registered keys at the wall clock (tokens are made with it).
    private func authorize(_ request: HTTPRequest) throws(AppStoreAPIError) -> ServerAPIToken {
        guard let header = request.header("authorization"), header.hasPrefix("Bearer ") else { throw .unauthenticated }
        let registered = (try? keys.verificationKeys()) ?? [:]
        switch ServerAPIToken.verify(String(header.dropFirst(7)), at: wallClock(), key: { registered[$0] }) {
        case .success(let token): return token
        case .failure(let failure) where failure.reason == .missingBundleId: throw .invalidAppIdentifier
        case .failure: throw .unauthenticated
        }
    }

    /// One token from the key's bucket, or 429 with the time the next one is due.
    private func takeToken(for keyId: String) throws(AppStoreAPIError) {
        guard let rate = requestsPerSecond, rate > 0 else { return }
        let now = wallClock()
        let burst = max(1, rate)
        let wait: TimeInterval? = buckets.withLock { buckets in
            var bucket = buckets[keyId] ?? (burst, now)
            bucket.tokens = min(burst, bucket.tokens + now.timeIntervalSince(bucket.at) * rate)
            bucket.at = now
            defer { buckets[keyId] = bucket }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / rate }
            bucket.tokens -= 1
            return nil
        }
        if let wait { throw .rateLimitExceeded(retryAt: now.addingTimeInterval(wait)) }
    }

    private func route(_ request: HTTPRequest, token: ServerAPIToken) throws -> HTTPResponse {
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if segments.count > 4, segments[1] == "inApps", segments[2] == "v1", segments[3] == "notifications" { return try notifications(request, segments: segments, token: token) }
        guard request.method == "GET", segments.count == 5, segments[0].isEmpty, segments[1] == "inApps" else {
            throw AppStoreAPIError.notFound
        }
        let id = HTTPRequest.decodePathSegment(segments[4]) ?? ""
        switch (segments[2], segments[3]) {
        case ("v1", "transactions"): return try transactionInfo(id, token: token)
        case ("v1", "history"): return try history(id, request: request, token: token, version: 1)
        case ("v2", "history"): return try history(id, request: request, token: token, version: 2)
        case ("v1", "subscriptions"): return try subscriptionStatuses(id, request: request, token: token)
        default: throw AppStoreAPIError.notFound
        }
    }

    /// The sandbox now and the account that made `transactionId`, for a token of this app; Apple's 400 for an
    /// id that is not a transaction id, 404 `4040010` for one this app's sandbox never issued.
    func customer(of transactionId: String, token: ServerAPIToken) throws -> (sandbox: Sandbox, account: String) {
        guard !transactionId.isEmpty, transactionId.utf8.count <= 64,
              transactionId.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw AppStoreAPIError.invalidTransactionId
        }
        let sandbox = try sandboxDirectory.load()
        guard token.bundleId == sandbox.bundleId, let account = sandbox.account(ofTransaction: transactionId) else {
            throw AppStoreAPIError.transactionIdNotFound
        }
        return (sandbox, account)
    }

    /// `environment`, `bundleId` (and no `appAppleId`: the sandbox environment may omit it) of every answer.
    func appFields(_ sandbox: Sandbox) -> [String: Any] {
        ["environment": sandbox.environment.rawValue, "bundleId": sandbox.bundleId]
    }

    /// A 200 with `object` as JSON.
    static func json(_ object: [String: Any]) throws -> HTTPResponse {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return HTTPResponse(status: 200, headers: [HTTPResponse.Field("Content-Type", "application/json")], body: Array(data))
    }

    /// `GET /inApps/v1/transactions/{transactionId}`: `{"signedTransactionInfo": …}`.
    private func transactionInfo(_ id: String, token: ServerAPIToken) throws -> HTTPResponse {
        let (sandbox, account) = try customer(of: id, token: token)
        guard let transaction = sandbox.transactions(account: account).first(where: { $0.transactionId == id }) else {
            throw AppStoreAPIError.transactionIdNotFound
        }
        return try Self.json(["signedTransactionInfo": try signer.signTransaction(transaction)])
    }
}
