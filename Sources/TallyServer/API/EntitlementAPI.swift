import Foundation
import TallyCore
import TallyCrypto
import TallyHTTP
import TallyServices
import TallyStorage

/// The `/v1` API of docs/server.md as a plain function from request to response: routing, keys, rate
/// limits, verification, the store and the state cache. ``EntitlementServer`` puts it behind HTTP; tests
/// call ``handle(_:)`` directly.
public final class EntitlementAPI: Sendable {
    /// The configuration it serves.
    public let configuration: ServerConfiguration
    /// Request and verification counts, for `/metrics`.
    public let metrics = ServerMetrics()
    let store: any CustomerStore
    let clock: ServerClock
    let keys: KeyRing
    let limiter: RateLimiter
    /// `customers.requireToken`'s check.
    let customerTokens: CustomerTokenCheck
    let verifier: PurchaseVerifier
    /// The live offerings document and the rules its mapping makes (``OfferingsSnapshot``): each request takes one
    /// snapshot, after its cache ticket, and computes every state it answers with it.
    let offerings: LiveOfferings
    let cache: StateCache
    /// Signs customer answers (`signing`); nil: they go unsigned.
    let signer: AnswerSigner?
    /// Admits at most `limits.maxConcurrentReconciles` reconciliations at once.
    let reconciles: ReconcileGate
    /// The dashboard's static files.
    let dashboardFiles: DashboardFiles
    /// `GET /v1/openapi.yaml`'s file.
    let openAPIDocument = OpenAPIDocument()
    /// Whether writes work, for `/readyz`.
    let readiness = Readiness()
    /// Where problems the operator must see go (a failing store); the client gets only a 503.
    let log: @Sendable (String) -> Void
    /// Where one line per answered request goes, when on: method, route template, status and milliseconds.
    /// Never the raw path: an `appUserId` may be personal data.
    let accessLog: (@Sendable (String) -> Void)?
    /// Signalled when a `CONSUMPTION_REQUEST` is stored, so ``ConsumptionResponder`` answers it at once.
    let consumptionRequestArrived = Wakeup()
    /// How long a cached state may be served at most, in seconds, by default (SQLite's `store.cacheSeconds`).
    static let maximumCacheAge: TimeInterval = 300

    /// How long a cached state may be served at most here (`store.cacheSeconds`); 0: the cache is off.
    var cacheMaximumAge: TimeInterval { TimeInterval(configuration.store.cacheSeconds) }

    /// Builds the API; fails when the verification settings cannot make verifiers. `uptime` is the monotonic clock
    /// the rate buckets refill on (the system's uptime; tests move their own).
    public init(configuration: ServerConfiguration, store: any CustomerStore, clock: ServerClock = .system,
                log: @escaping @Sendable (String) -> Void = { _ in },
                accessLog: (@Sendable (String) -> Void)? = nil,
                uptime: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime })
        throws(ServerConfigurationError) {
        self.configuration = configuration
        self.log = log
        self.accessLog = accessLog
        self.store = store
        self.clock = clock
        keys = KeyRing(entries: configuration.keys)
        dashboardFiles = DashboardFiles(configuration.dashboard)
        limiter = RateLimiter(uptime: uptime)
        customerTokens = CustomerTokenCheck(settings: configuration.customers)
        signer = configuration.signing.map { AnswerSigner(key: $0.privateKey) }
        reconciles = ReconcileGate(limit: configuration.limits.maxConcurrentReconciles)
        verifier = try PurchaseVerifier(settings: configuration.verification, catalog: configuration.catalog)
        let cache = StateCache()
        self.cache = cache
        offerings = LiveOfferings(store: store, configuration: configuration, cache: cache, clock: clock,
                                  uptime: uptime, log: log)
    }

    /// The handler to give an HTTP server.
    public var handler: HTTPHandler {
        { [self] request in handle(request) }
    }

    /// What the operator should know about the bundled files (the dashboard's missing, no Chart.js, no OpenAPI
    /// description); empty when all is there.
    var dashboardProblems: [String] {
        var problems = dashboardFiles.problem.map { ["dashboard: \($0)"] } ?? []
        if let problem = openAPIDocument.problem { problems.append(problem) }
        if !dashboardFiles.hasChartJS {
            problems.append("dashboard: Chart.js not found at \(configuration.dashboard.chartJSPath) (Debian: "
                + "libjs-chart.js; dashboard.chartJS); the dashboard shows its numbers as tables")
        }
        return problems
    }

    /// Answers one request; never throws, never crashes on input.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let start = DispatchTime.now().uptimeNanoseconds
        let (template, response) = route(request)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let method = Self.methodLabel(request.method)
        metrics.recordRequest(route: template, method: method, status: response.status, seconds: seconds)
        if let accessLog {
            accessLog("\(method) \(template) \(response.status) " + String(format: "%.2fms", seconds * 1000))
        }
        return response
    }

    private func route(_ request: HTTPRequest) -> (String, HTTPResponse) {
        let match: RouteMatch
        do {
            guard let found = try Router.match(request.path, method: request.method,
                                               notificationsPath: configuration.notifications.path) else {
                return ("unmatched", APIError.notFound.response)
            }
            match = found
        } catch {
            return ("unmatched", error.response)
        }
        let template = match.route.template
        guard match.route.allowedMethods.contains(request.method) else {
            return (template, APIError.methodNotAllowed(request.method, allowed: match.route.pathMethods).response)
        }
        var response: HTTPResponse
        let session: ReadSession
        do {
            session = try readSession(match.route, request)
        } catch {
            return (template, error.response)
        }
        let outcome = ReadSession.$current.withValue(session) { () -> Result<HTTPResponse, APIError> in
            do throws(APIError) {
                let match = try resolvingAlias(match, request)  // an aliased anonymous id answers for its customer
                let caller = match.route.role == nil ? nil
                    : try authorize(request, route: match.route, appUserId: match.appUserId)
                return .success(try perform(match, request, caller: caller))
            } catch {
                return .failure(error)
            }
        }
        do throws(APIError) {
            response = try outcome.get()
        } catch {
            if let message = error.logMessage { log("\(request.method) \(template): \(message)") }
            response = error.response
        }
        // `/readyz`'s probe write is no client's write: its answer carries no token.
        if let written = session.written, match.route != .readyz, (200..<300).contains(response.status) {
            response.headers.append(HTTPResponse.Field(ReadAfter.headerName, written.token))
        }
        if match.route.isCustomerScoped { response.headers.append(Self.noStore) }
        if let signer, match.route.answersCustomerState, (200..<300).contains(response.status),
           let field = signer.field(body: response.body, nonce: request.header(AnswerSignature.nonceHeaderName),
                                    at: clock.now()) {
            response.headers.append(field)
        }
        return (template, response)
    }

    /// The request's ``ReadSession``: whether its reads may go to a replica (a `GET` of a route that
    /// ``Route/readsFromReplica``) and the `Tally-Read-After` it sent, which must be a token a write answered with
    /// (``ReadAfter``: 16 uppercase hexadecimal digits; anything else is refused with 400 `invalid_request`).
    private func readSession(_ route: Route, _ request: HTTPRequest) throws(APIError) -> ReadSession {
        var after: ReadAfter?
        if let value = request.header(ReadAfter.headerName) {
            guard let token = ReadAfter(token: value) else {
                throw APIError.invalidRequest("\(ReadAfter.headerName) must be the token a write's answer carried "
                                              + "(\(ReadAfter.length) characters 0-9 A-F), unchanged")
            }
            after = token
        }
        return ReadSession(replicaAllowed: request.method == "GET" && route.readsFromReplica, after: after)
    }

    /// What every customer-scoped answer carries: no shared or private cache may keep it.
    static let noStore = HTTPResponse.Field("Cache-Control", "no-store")

    private func perform(_ match: RouteMatch, _ request: HTTPRequest, caller: KeyRole?) throws(APIError) -> HTTPResponse {
        switch match.route {
        case .healthz: return APIResponse.json(Array(#"{"status":"ok"}"#.utf8))
        case .readyz: return readyz()
        case .metrics:
            return HTTPResponse(status: 200, headers: [.init("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                                body: Array((metrics.prometheusText(oldestPendingNotificationAge: pendingNotificationAge(),
                                                                     cacheUsage: cache.usage,
                                                                     webhooks: webhookOutboxStats())
                                             + Self.replicaMetrics(replicaReport)).utf8))
        case .appleNotifications: return try postNotification(request)
        case .customer: return try getCustomer(match.appUserId)
        case .transactions: return try postTransaction(match.appUserId, request)
        case .receipts: return try postReceipt(match.appUserId, request)
        case .history: return try history(match.appUserId, request)
        case .spend: return try spend(match.appUserId, currency: match.currency, request)
        case .reconcile: return try reconcile(match.appUserId)
        case .accountToken: return try accountToken(match.appUserId)
        case .aliases: return try postAlias(match.appUserId, request)
        case .attributes: return try attributes(match.appUserId, request)
        case .dashboardOverview: return try dashboardOverview(request)
        case .dashboardCustomers: return try dashboardCustomers(request)
        case .dashboardTransactions: return try dashboardTransactions(request)
        case .dashboardNotifications: return try dashboardNotifications(request)
        case .dashboardCatalog: return dashboardCatalog()
        case .dashboardIdentity: return try dashboardIdentity(request)
        case .dashboardOffers: return try dashboardOffers(request)
        case .dashboardWebhooks: return try dashboardWebhooks(request)
        case .dashboardWebhookRetry: return try retryWebhook(request)
        case .dashboardFile: return dashboardFiles.response(match.file)
        case .openAPI: return openAPIDocument.response
        case .offerings: return try getOfferings(request)
        case .offeringsUpdate: return try putOfferings(request)
        case .offeringsDocument: return try offeringsDocument(request)
        case .offeringsHistory: return try offeringsHistory(request)
        case .offeringsRollback: return try rollBackOfferings(request)
        case .promotionalOfferSignature: return try promotionalOfferSignature(request, byPublicKey: caller == .public)
        case .introductoryOfferEligibility: return try introductoryOfferEligibility(request, byPublicKey: caller == .public)
        }
    }

    /// Checks the bearer key, its rate (the buckets ``RateCharge`` picks) and its role (``Route/admits(_:)``, or a
    /// public key on an offer route that `offers` lets take a customer token); the key's role.
    /// Requests with no key or an unknown key are counted per client network.
    private func authorize(_ request: HTTPRequest, route: Route, appUserId: String) throws(APIError) -> KeyRole {
        let limits = configuration.limits
        guard let token = KeyRing.bearerToken(request.header("authorization")),
              let entry = keys.entry(forKey: token) else {
            try charge(.unknownKey(from: request.clientNetwork, limits: limits))
            throw .unauthorized
        }
        // A public-key call on a customer route: its customer token is checked first, so a request a valid token
        // speaks for is counted in that customer's own bucket (which a stranger without the token cannot spend);
        // any other is counted per customer and address, and a refused token is answered after its charge.
        let scoped = entry.role == .public && route.isCustomerScoped
        let refusal = scoped ? customerTokens.refusal(request, appUserId: appUserId, required: route == .accountToken) : nil
        let verified = scoped && refusal == nil && request.header(CustomerTokenCheck.headerName) != nil
        try charge(.key(entry, appUserId: appUserId, from: request.clientNetwork, customerVerified: verified,
                        limits: limits))
        if !route.admits(entry.role), !(entry.role == .public && offersTakeCustomerTokens(on: route)) { throw .forbidden }
        if let refusal { throw refusal }
        return entry.role
    }

    /// Takes a token from each of the charge's buckets, or throws 429 with the wait when one is empty.
    private func charge(_ charge: RateCharge) throws(APIError) {
        if let wait = limiter.acquire(charge.buckets) { throw .rateLimited(retryAfter: wait, for: charge.scope) }
    }

    /// Known methods as sent; anything else as `other`, so labels stay few.
    static func methodLabel(_ method: String) -> String {
        ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"].contains(method) ? method : "other"
    }
}
