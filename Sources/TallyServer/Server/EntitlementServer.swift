import Foundation
import TallyCore
import TallyHTTP
import TallyServices
import TallyStorage

/// The entitlement server: the ``EntitlementAPI`` over a `CustomerStore` (TallyStorage's contract; the caller opens
/// TallySQLiteStore's `SQLiteCustomerStore` or TallyPostgres's `PostgresCustomerStore`), listening over HTTP from
/// `init` until ``stop()``.
public final class EntitlementServer: Sendable {
    /// The API answering the requests.
    public let api: EntitlementAPI
    /// The database.
    public let store: any CustomerStore
    /// The address it listens on, with the port actually bound (the free one picked for port 0).
    public let address: ListenAddress
    private let http: HTTPServer
    /// The background services, started once listening: the sandbox clock followed (`clock.sandboxURL`), the
    /// back-fill (`appStoreServerAPI.backfillIntervalSeconds`) and the `CONSUMPTION_REQUEST` responder
    /// (`appStoreServerAPI.consumptionInformation`), each only when configured.
    private let services: ServiceGroup

    /// Builds the API over `store` (opened by the caller, as the CLI opens the store `tally-server.json` names) and
    /// starts listening on `listen` (the configuration's address when nil). Problems the operator must see (a
    /// failing store) go to `log`, standard error by default; a line per request goes to `accessLog` when given.
    public init(configuration: ServerConfiguration, store: any CustomerStore, listen: ListenAddress? = nil,
                clock: ServerClock = .system,
                log: @escaping @Sendable (String) -> Void = EntitlementServer.standardErrorLog,
                accessLog: (@Sendable (String) -> Void)? = nil) throws(EntitlementServerError) {
        let address = listen ?? configuration.listen
        guard (0...65_535).contains(address.port) else {
            throw .http(.invalidConfiguration("port must be 0…65535, got \(address.port)"))
        }
        self.store = store
        var clock = clock
        var services: [any Service] = []
        if let url = configuration.sandboxClockURL {
            let followed = try SandboxClock(sandboxURL: url)
            services.append(followed)
            clock = followed.serverClock
        }
        do {
            api = try EntitlementAPI(configuration: configuration, store: store, clock: clock, log: log,
                                     accessLog: accessLog)
        } catch {
            throw .configuration(error)
        }
        let api = self.api
        for problem in api.dashboardProblems { log(problem) }
        let limits = configuration.limits, notifications = configuration.notifications
        let settings = HTTPServer.Configuration(
            host: address.host, port: UInt16(address.port), threads: configuration.threads,
            maxBodyBytes: limits.maxBodyBytes,
            bodyLimit: { method, path in Router.maxBodyBytes(method: method, path: path, limits: limits,
                                                                      notifications: notifications) },
            connectionTimeoutSeconds: limits.idleTimeoutSeconds, headTimeoutSeconds: limits.headTimeoutSeconds,
            connectionLimit: max(limits.maxConnections, configuration.threads),
            connectionLimitPerAddress: limits.maxConnectionsPerIP,
            refusal: { request, refusal in api.refuse(request, refusal) },
            blockingRequests: Self.blockingRequests(configuration))
        do {
            http = try HTTPServer(configuration: settings, handler: api.handler)
        } catch {
            throw .http(error)
        }
        self.address = ListenAddress(host: address.host, port: Int(http.port))
        if let interval = configuration.appStoreServerAPI?.backfillInterval {
            services.append(PeriodicBackfill.service(api: api, interval: interval, log: log))
        }
        if configuration.appStoreServerAPI?.consumption != nil {
            services.append(ConsumptionResponder.service(api: api, log: log))
        }
        self.services = ServiceGroup(services, report: { failure in log("\(failure)") })
        self.services.start()
    }

    /// Every POST runs on the blocking pool: `writeThreads` threads for writes, plus one for each reconciliation
    /// ``ReconcileGate`` admits, so reconciliations waiting on Apple's API never hold a thread a write needs (one
    /// refused at the gate answers at once); nil when `writeThreads` is 0 (POSTs run on the HTTP threads).
    static func blockingRequests(_ configuration: ServerConfiguration) -> HTTPServer.BlockingRequests? {
        guard configuration.writeThreads > 0 else { return nil }
        return HTTPServer.BlockingRequests(threads: configuration.writeThreads + configuration.limits.maxConcurrentReconciles) {
            method, _ in method == "POST"
        }
    }

    /// Writes one line to standard error, prefixed `tally serve:`.
    public static let standardErrorLog: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data("tally serve: \(message)\n".utf8))
    }

    /// The port it listens on.
    public var port: Int { address.port }

    /// Stops accepting connections, lets the requests in flight finish for at most `limits.shutdownGraceSeconds`,
    /// then closes every connection; then stops the background services, waiting for a round under way (a
    /// back-fill page, a consumption answer) to end. Blocks the calling thread. Calling it again does nothing.
    public func stop() {
        http.stop(gracePeriod: TimeInterval(api.configuration.limits.shutdownGraceSeconds))
        services.stopAndWait()
    }
}
