import Foundation
import TallyAppStoreAPI
import TallyCore
import TallyCrypto

/// How the server calls Apple's App Store Server API to reconcile customers (the `appStoreServerAPI` object of
/// `tally-server.json`): an in-app purchase key from App Store Connect and the environment.
public struct AppStoreServerAPISettings: Sendable {
    /// The issuer id from App Store Connect's Keys page.
    public var issuerId: String
    /// The in-app purchase key's id.
    public var keyId: String
    /// The in-app purchase key (the `.p8` file `privateKey` names).
    public var privateKey: PrivateKey
    /// `Sandbox` or `Production`: which Apple host, and which verifier checks what it answers.
    public var environment: StoreEnvironment
    /// The API's base URL: Apple's host for the environment unless `baseURL` overrides it (a `tally sandbox serve`).
    public var baseURL: URL
    /// Seconds between back-fills run inside `tally serve` (`backfillIntervalSeconds`); nil: off (the default).
    public var backfillInterval: TimeInterval?
    /// How `CONSUMPTION_REQUEST` notifications are answered (`consumptionInformation`); nil: they are not.
    public var consumption: ConsumptionSettings?

    /// A client of the API with these settings, for the app `bundleId`.
    public func client(bundleId: String) -> AppStoreAPIClient {
        AppStoreAPIClient(configuration: AppStoreAPIClient.Configuration(
            baseURL: baseURL, keyId: keyId, issuerId: issuerId, bundleId: bundleId, key: privateKey))
    }

    /// Apple's production host.
    public static let productionURL = URL(string: "https://api.storekit.apple.com")!
    /// Apple's sandbox host.
    public static let sandboxURL = URL(string: "https://api.storekit-sandbox.apple.com")!

    /// Creates settings.
    public init(issuerId: String, keyId: String, privateKey: PrivateKey, environment: StoreEnvironment, baseURL: URL? = nil,
                backfillInterval: TimeInterval? = nil, consumption: ConsumptionSettings? = nil) {
        self.backfillInterval = backfillInterval
        self.consumption = consumption
        self.issuerId = issuerId
        self.keyId = keyId
        self.privateKey = privateKey
        self.environment = environment
        self.baseURL = baseURL ?? (environment == .production ? Self.productionURL : Self.sandboxURL)
    }
}
