import Foundation
import TallyCore
import TallyHTTP
import TallyStorage

/// A loaded, checked `tally-server.json` (docs/server.md): the catalog and app configuration it names,
/// verification, ownership, keys and limits.
public struct ServerConfiguration: Sendable {
    /// Where to listen; `--listen` overrides it.
    public var listen: ListenAddress
    /// The products (from the `.storekit` file).
    public var catalog: Catalog
    /// Entitlements and currencies (`tally.json`).
    public var appConfiguration: AppConfiguration
    /// How payloads are verified.
    public var verification: VerificationSettings
    /// What happens when a chain owned by one customer is posted by another.
    public var ownership: OwnershipPolicy
    /// The accepted keys (at least one).
    public var keys: [APIKeyEntry]
    /// Rate and request limits.
    public var limits: ServerLimits
    /// HTTP worker threads.
    public var threads: Int
    /// Threads that run POST requests (each waits for its group's COMMIT) while the HTTP threads serve the
    /// other connections (`writeThreads`, default 32): more writes waiting together make larger commit groups.
    /// 0: POSTs run on the HTTP threads.
    public var writeThreads: Int
    /// Where App Store Server Notifications arrive.
    public var notifications: NotificationSettings
    /// How to call the App Store Server API to reconcile customers; nil when not configured.
    public var appStoreServerAPI: AppStoreServerAPISettings?
    /// A `tally sandbox serve` whose clock the server follows (`clock.sandboxURL`), for tests and demos only;
    /// nil: the system clock.
    public var sandboxClockURL: URL?
    /// Where customers are kept (SQLite by default) and how long this server may cache a state.
    public var store: StoreSettings
    /// Where the dashboard's files come from.
    public var dashboard = DashboardSettings()
    /// How customers prove who they are (customer tokens).
    public var customers = CustomerSettings()
    /// The key customer answers are signed with (`signing`); nil: answers go unsigned (docs/server.md).
    public var signing: SigningSettings?
    /// How often one chain may move within the hour under `OwnershipPolicy.transfer`
    /// (`transfersPerChainPerHour`, default 10).
    public var transferLimit = TransferLimit()
    /// The offerings document's seed and refresh (`offerings`).
    public var offerings = OfferingsSettings()
    /// Which promotional offers the server signs (`offers`).
    public var offers = OfferSettings()

    /// Creates a configuration from loaded parts.
    public init(listen: ListenAddress = ListenAddress(host: "127.0.0.1", port: 8080), catalog: Catalog,
                appConfiguration: AppConfiguration, verification: VerificationSettings,
                ownership: OwnershipPolicy = .transfer, keys: [APIKeyEntry], limits: ServerLimits = ServerLimits(),
                threads: Int = 4, notifications: NotificationSettings = NotificationSettings(),
                appStoreServerAPI: AppStoreServerAPISettings? = nil, sandboxClockURL: URL? = nil,
                writeThreads: Int = 32, store: StoreSettings = StoreSettings()) {
        self.writeThreads = writeThreads
        self.listen = listen
        self.catalog = catalog
        self.appConfiguration = appConfiguration
        self.verification = verification
        self.ownership = ownership
        self.keys = keys
        self.limits = limits
        self.threads = threads
        self.notifications = notifications
        self.appStoreServerAPI = appStoreServerAPI
        self.sandboxClockURL = sandboxClockURL
        self.store = store
    }

    /// What each transaction credits under this catalog and `tally.json`: the store keeps its balances with it.
    public var credits: CurrencyCredits {
        CurrencyCredits(catalog: catalog, configuration: appConfiguration)
    }
}
