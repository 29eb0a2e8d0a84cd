import Foundation
import TallyLocking
import TallyCore
import TallyCrypto
import TallyHTTP
import TallySandbox

/// The App Store Server API played by the sandbox in a data directory: Apple's paths, parameters, JSON fields and
/// error bodies (../shared/docs/app-store-server-api.md), answered from the sandbox's state, with every
/// transaction and renewal info signed by the sandbox's CA. Requests must carry a JWT signed with an in-app
/// purchase key registered by `tally sandbox api-key` (``SandboxAPIKeys``).
///
/// Served so far: Get Transaction Info, Get Transaction History (v1 and v2), Get All Subscription Statuses,
/// Look Up Order ID, Get Refund History (v2), Send Consumption Information (v1 and v2), Extend a Subscription
/// Renewal Date (and the mass extension with its status), Set App Account Token; Get Notification History,
/// Request a Test Notification, Get Test Notification Status (AppStoreServerAPI+Notifications.swift).
public final class AppStoreServerAPI: Sendable {
    /// The sandbox's data directory.
    public let directory: URL
    /// Requests per second one key may make (nil: no limit), answered 429 `RateLimitExceededError` beyond.
    public let requestsPerSecond: Double?
    let sandboxDirectory: SandboxDirectory
    let signer: SandboxSigner
    let keys: SandboxAPIKeys
    /// A kept connection for cheap reads of the sandbox clock.
    let store: SandboxStore
    let wallClock: @Sendable () -> Date
    private let buckets = Locked<[String: (tokens: Double, at: Date)]>([:])

    /// The API over the sandbox in `directory` (its CA is created when missing).
    public init(directory: URL, requestsPerSecond: Double? = nil,
                wallClock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.directory = directory
        self.requestsPerSecond = requestsPerSecond
        self.wallClock = wallClock
        sandboxDirectory = SandboxDirectory(url: directory)
        let sandbox = try sandboxDirectory.load(account: "", events: false)  // the clock is store-wide
        signer = try SandboxCertificateAuthority.loadOrGenerate(in: directory, now: sandbox.now).signer()
        keys = SandboxAPIKeys(directory: directory)
        store = SandboxStore(directory: sandboxDirectory)
    }

    /// The HTTP handler: every request answered, never a crash.
    public var handler: @Sendable (HTTPRequest) -> HTTPResponse {
        { [self] request in handle(request) }
    }

    /// Where the sandbox's clock is read, for a `tally serve` that follows it in tests (not an Apple path).
    public static let clockPath = "/tally/v1/clock"

    /// Answers one request.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        if request.path == Self.clockPath, request.method == "GET" { return clock() }
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
        if segments.count > 4, segments[1] == "inApps", segments[2] == "v1", segments[3] == "notifications" {
            return try notifications(request, segments: segments, token: token)
        }
        guard let route = APIRoute(request) else { throw AppStoreAPIError.notFound }
        switch route {
        case "GET v1/transactions/*": return try transactionInfo(route[2], token: token)
        case "GET v1/history/*": return try history(route[2], request: request, token: token, version: 1)
        case "GET v2/history/*": return try history(route[2], request: request, token: token, version: 2)
        case "GET v1/subscriptions/*": return try subscriptionStatuses(route[2], request: request, token: token)
        case "GET v1/lookup/*": return try lookUpOrderId(route[2], token: token)
        case "GET v2/refund/lookup/*": return try refundHistory(route[3], request: request, token: token)
        case "PUT v1/transactions/consumption/*": return try sendConsumptionV1(route[3], request: request, token: token)
        case "PUT v2/transactions/consumption/*": return try sendConsumption(route[3], request: request, token: token)
        case "PUT v1/subscriptions/extend/*": return try extendRenewalDate(route[3], request: request, token: token)
        case "POST v1/subscriptions/extend/mass": return try massExtendRenewalDate(request, token: token)
        case "GET v1/subscriptions/extend/mass/*/*":
            return try massExtensionStatus(productId: route[4], requestIdentifier: route[5], token: token)
        case "PUT v1/transactions/*/appAccountToken": return try setAppAccountToken(route[2], request: request, token: token)
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
        // One indexed lookup, then only that account's records: the cost does not grow with other customers.
        guard let account = try store.account(ofTransaction: transactionId) else {
            throw AppStoreAPIError.transactionIdNotFound
        }
        let sandbox = try store.read(account: account)
        guard token.bundleId == sandbox.bundleId else { throw AppStoreAPIError.transactionIdNotFound }
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
        guard let transaction = sandbox.transactions(account: account).first(where: { $0.transactionId.hasSameBytes(as: id) }) else {
            throw AppStoreAPIError.transactionIdNotFound
        }
        return try Self.json(["signedTransactionInfo": try signer.signTransaction(transaction)])
    }

    /// `GET /tally/v1/clock`: `{"now": <ms since 1970>}`, the sandbox's current time (no key: it is no secret).
    private func clock() -> HTTPResponse {
        guard let stamp = store.stamp() else { return AppStoreAPIError.generalInternal.response }
        return (try? Self.json(["now": stamp.now.millisecondsSince1970])) ?? AppStoreAPIError.generalInternal.response
    }
}
