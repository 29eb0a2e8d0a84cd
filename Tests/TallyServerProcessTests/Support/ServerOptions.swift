import Foundation

/// The parts of `tally-server.json` a test changes; everything else is the Market example.
struct ServerOptions: Sendable {
    /// `ownership` (`transfer` or `keep`); nil leaves the default.
    var ownership: String?
    /// `rateLimit`: high by default so only the rate-limit tests meet it; the public key's ceiling, its
    /// per-address share, the per-address rates of unknown keys and of refused notifications are set to the same.
    var requestsPerSecond = 1_000_000
    var burst = 1_000_000
    /// `limits.maxBodyBytes`; nil leaves the default.
    var maxBodyBytes: Int?
    /// `limits.maxJSONDepth`; nil leaves the default.
    var maxJSONDepth: Int?
    /// `threads`; nil leaves the default.
    var threads: Int?
    /// `store: {"kind": "postgres", "urlEnv": …}`: the name of the environment variable holding the URL; nil: SQLite.
    var postgresURLEnv: String?
    /// `store.poolSize` with PostgreSQL.
    var poolSize = 8
    /// `store.replicas` with PostgreSQL: the replicas' URLs.
    var postgresReplicas: [String] = []
    /// `store.maxReplicaLagSeconds`; nil leaves the default.
    var maxReplicaLagSeconds: Double?
    /// `store.preparedStatements`; nil leaves the default.
    var preparedStatements: Bool?
    /// `store.cacheSeconds`; nil leaves the default.
    var cacheSeconds: Int?
    /// `transfersPerChainPerHour`; nil leaves the default.
    var transfersPerChainPerHour: Int?
    /// Seeds the offerings document from the Market's `offerings.json` (`offerings.file`).
    var offeringsSeed = false
    /// `offerings.refreshSeconds`; nil: the default.
    var offeringsRefreshSeconds: Int?

    /// The configuration document: the catalog and app configuration copied beside it (relative paths),
    /// the sandbox root as the only JWS root, environment Sandbox.
    func document(keys: ServerKeys, rootFile: String) -> [String: Any] {
        var document: [String: Any] = [
            "storekit": "Market.storekit",
            "appConfiguration": "tally.json",
            "verification": ["environments": ["Sandbox"], "roots": [rootFile]] as [String: Any],
            "keys": keys.configurationEntries,
            "rateLimit": ["requestsPerSecond": requestsPerSecond, "burst": burst,
                          "publicKeyRequestsPerSecond": requestsPerSecond, "publicKeyBurst": burst,
                          "publicKeyPerAddressRequestsPerSecond": requestsPerSecond, "publicKeyPerAddressBurst": burst,
                          "unknownKeyRequestsPerSecond": requestsPerSecond, "unknownKeyBurst": burst,
                          "unverifiedNotificationsPerSecond": requestsPerSecond, "unverifiedNotificationBurst": burst],
        ]
        if let ownership { document["ownership"] = ownership }
        if let transfersPerChainPerHour { document["transfersPerChainPerHour"] = transfersPerChainPerHour }
        var limits: [String: Any] = [:]
        if let maxBodyBytes { limits["maxBodyBytes"] = maxBodyBytes }
        if let maxJSONDepth { limits["maxJSONDepth"] = maxJSONDepth }
        if !limits.isEmpty { document["limits"] = limits }
        if let threads { document["threads"] = threads }
        var offerings: [String: Any] = [:]
        if offeringsSeed { offerings["file"] = "offerings.json" }
        if let offeringsRefreshSeconds { offerings["refreshSeconds"] = offeringsRefreshSeconds }
        if !offerings.isEmpty { document["offerings"] = offerings }
        if let postgresURLEnv {
            var store: [String: Any] = ["kind": "postgres", "urlEnv": postgresURLEnv, "poolSize": poolSize]
            if let cacheSeconds { store["cacheSeconds"] = cacheSeconds }
            if !postgresReplicas.isEmpty { store["replicas"] = postgresReplicas }
            if let maxReplicaLagSeconds { store["maxReplicaLagSeconds"] = maxReplicaLagSeconds }
            if let preparedStatements { store["preparedStatements"] = preparedStatements }
            document["store"] = store
        }
        return document
    }
}
