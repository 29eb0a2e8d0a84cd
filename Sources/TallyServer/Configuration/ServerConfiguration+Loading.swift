import Foundation
import TallyCore
import TallyHTTP
import TallyStorage

extension ServerConfiguration {
    /// The top-level keys of `tally-server.json`; any other key is an error.
    public static let jsonKeys = ["listen", "storekit", "appConfiguration", "verification", "ownership", "keys",
                                  "rateLimit", "limits", "threads", "writeThreads", "notifications", "appStoreServerAPI", "offers", "clock", "store",
                                  "dashboard", "customers", "signing", "transfersPerChainPerHour", "offerings"]

    /// Loads `tally-server.json` and the files it names (relative to its directory), checking everything;
    /// one error lists every problem with its JSON path.
    public init(contentsOf url: URL) throws(ServerConfigurationError) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ServerConfigurationError(fileName: url.lastPathComponent, problems: [
                .init("", "cannot read \(url.path): no such file or not readable")])
        }
        try self.init(jsonData: data, fileName: url.lastPathComponent,
                      directory: url.deletingLastPathComponent())
    }

    /// Loads a configuration from its JSON; relative paths resolve against `directory`; `store.urlEnv` is looked
    /// up in `environment`.
    public init(jsonData data: Data, fileName: String, directory: URL,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(ServerConfigurationError) {
        var reader = ConfigurationReader(directory: directory)
        let tree: JSONTree
        do {
            tree = try StrictJSONReader.read([UInt8](data), maxDepth: 32, name: fileName)
        } catch {
            switch error {
            case .inexactNumber(_, let member): reader.problem(member ?? "", error.description)
            case .malformed, .tooDeep, .tooManyElements: reader.problem("", "not JSON: \(error.description)")
            }
            throw ServerConfigurationError(fileName: fileName, problems: reader.problems)
        }
        let loaded = Self.load(JSONCursor(tree: tree, file: fileName), environment: environment, reader: &reader)
        guard reader.problems.isEmpty, let loaded else {
            throw ServerConfigurationError(fileName: fileName, problems: reader.problems)
        }
        self = loaded
    }

    private static func load(_ root: JSONCursor, environment: [String: String],
                             reader: inout ConfigurationReader) -> ServerConfiguration? {
        guard let members = reader.object(root, allowed: jsonKeys) else { return nil }
        var listen = ListenAddress(host: "127.0.0.1", port: 8080)
        if let node = members["listen"], let text = reader.string(node) {
            if let address = ListenAddress(text) { listen = address } else {
                reader.problem("listen", "must be HOST:PORT with a port from 0 to 65535, such as 127.0.0.1:8080")
            }
        }
        let catalog = loadCatalog(members["storekit"], reader: &reader)
        let app = loadAppConfiguration(members["appConfiguration"], catalog: catalog, reader: &reader)
        let verification = loadVerification(members["verification"], bundleId: app?.bundleId, reader: &reader)
        var ownership = OwnershipPolicy.transfer
        if let node = members["ownership"], let text = reader.string(node) {
            if let policy = OwnershipPolicy(rawValue: text) { ownership = policy } else {
                reader.problem("ownership", "must be \"transfer\" or \"keep\", not \"\(text)\"")
            }
        }
        var transferLimit = TransferLimit()
        if let node = members["transfersPerChainPerHour"], let value = reader.integer(node, in: 1...1_000_000) {
            transferLimit = TransferLimit(perChainPerHour: Int(value))
        }
        let keys = loadKeys(members["keys"], reader: &reader)
        var threads = 4
        if let node = members["threads"], let value = reader.integer(node, in: 1...256) {
            threads = Int(value)
        }
        var writeThreads = 32
        if let node = members["writeThreads"], let value = reader.integer(node, in: 0...1_024) {
            writeThreads = Int(value)
        }
        let limits = loadLimits(rate: members["rateLimit"], limits: members["limits"], threads: threads,
                                reader: &reader)
        let notifications = loadNotifications(members["notifications"], reader: &reader)
        if members["notifications"] != nil, notifications.maxBodyBytes > limits.maxBodyBytes {
            reader.problem("notifications.maxBodyBytes",
                           "must not exceed limits.maxBodyBytes (\(limits.maxBodyBytes)), the largest body on any route")
        }
        let appStoreServerAPI = loadAppStoreServerAPI(members["appStoreServerAPI"], verification: verification,
                                                      reader: &reader)
        var sandboxClockURL: URL?
        if let node = members["clock"], let clock = reader.object(node, allowed: ["sandboxURL"]),
           let value = clock["sandboxURL"], let text = reader.string(value) {
            if let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil {
                sandboxClockURL = url
            } else {
                reader.problem("clock.sandboxURL", "must be the http URL of a running `tally sandbox serve`")
            }
        }
        var dashboard = DashboardSettings()
        if let node = members["dashboard"], let settings = reader.object(node, allowed: ["chartJS", "files"]) {
            if let value = settings["chartJS"], let text = reader.string(value) {
                dashboard.chartJSPath = reader.directory.appendingPathComponent(text).standardizedFileURL.path
                if text.hasPrefix("/") { dashboard.chartJSPath = text }
            }
            if let value = settings["files"], let text = reader.string(value) {
                dashboard.filesDirectory = text.hasPrefix("/") ? text
                    : reader.directory.appendingPathComponent(text).standardizedFileURL.path
            }
        }
        let store = loadStore(members["store"], environment: environment, reader: &reader)
        let customers = loadCustomers(members["customers"], reader: &reader)
        let signing = loadSigning(members["signing"], reader: &reader)
        let offerings = loadOfferings(members["offerings"], catalog: catalog, app: app, reader: &reader)
        let offers = loadOffers(members["offers"], hasTokenKeys: !customers.tokenKeys.isEmpty, reader: &reader)
        guard let catalog, let app, let verification else { return nil }
        var configuration = ServerConfiguration(
            listen: listen, catalog: catalog, appConfiguration: app, verification: verification, ownership: ownership,
            keys: keys, limits: limits, threads: threads, notifications: notifications,
            appStoreServerAPI: appStoreServerAPI, sandboxClockURL: sandboxClockURL, writeThreads: writeThreads, store: store)
        configuration.dashboard = dashboard
        configuration.customers = customers
        configuration.signing = signing
        configuration.transferLimit = transferLimit
        configuration.offerings = offerings
        configuration.offers = offers
        return configuration
    }

    private static func loadCatalog(_ node: JSONCursor?, reader: inout ConfigurationReader) -> Catalog? {
        guard let node else {
            reader.problem("storekit", "is required: the .storekit file with your products")
            return nil
        }
        guard let file = reader.file(node) else { return nil }
        do {
            return try Catalog(storeKitData: file.data, fileName: file.url.lastPathComponent)
        } catch {
            reader.problem("storekit", error.message)
            return nil
        }
    }

    private static func loadAppConfiguration(_ node: JSONCursor?, catalog: Catalog?,
                                             reader: inout ConfigurationReader) -> AppConfiguration? {
        guard let node else {
            reader.problem("appConfiguration", "is required: the tally.json with entitlements and currencies")
            return nil
        }
        guard let file = reader.file(node) else { return nil }
        do {
            let configuration = try AppConfiguration(jsonData: file.data, fileName: file.url.lastPathComponent)
            if let catalog { try configuration.validate(against: catalog, fileName: file.url.lastPathComponent) }
            return configuration
        } catch {
            reader.problem("appConfiguration", error.message)
            return nil
        }
    }
}
