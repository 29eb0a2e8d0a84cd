import Foundation
import TallyCore

extension ServerConfiguration {
    static let storeKeys = ["kind", "url", "urlEnv", "poolSize", "cacheSeconds", "replicas", "maxReplicaLagSeconds",
                            "preparedStatements"]

    /// Reads `store`; the PostgreSQL URL is `url`, or the value of the environment variable `urlEnv` names (so the
    /// password need not be in the file), never both.
    static func loadStore(_ node: JSONCursor?, environment: [String: String],
                          reader: inout ConfigurationReader) -> StoreSettings {
        guard let node, let members = reader.object(node, allowed: storeKeys) else { return StoreSettings() }
        var cacheSeconds: Int?
        if let value = members["cacheSeconds"], let seconds = reader.integer(value, in: 0...300) {
            cacheSeconds = Int(seconds)
        }
        let kind = members["kind"].flatMap { reader.string($0) } ?? "sqlite"
        switch kind {
        case "sqlite":
            for key in ["url", "urlEnv", "poolSize", "replicas", "maxReplicaLagSeconds", "preparedStatements"] where members[key] != nil {
                reader.problem("store.\(key)", "applies to \"kind\": \"postgres\" only")
            }
            return StoreSettings(kind: .sqlite, cacheSeconds: cacheSeconds)
        case "postgres":
            var poolSize = StoreSettings.defaultPoolSize
            if let value = members["poolSize"], let size = reader.integer(value, in: 1...1_000) { poolSize = Int(size) }
            var url: String?
            switch (members["url"], members["urlEnv"]) {
            case (let value?, nil):
                url = reader.string(value)
            case (nil, let value?):
                if let name = reader.string(value) {
                    if let found = environment[name], !found.isEmpty { url = found } else {
                        reader.problem("store.urlEnv", "names the environment variable \(name), which is not set")
                    }
                }
            case (_?, _?):
                reader.problem("store", "give \"url\" or \"urlEnv\", not both")
            case (nil, nil):
                reader.problem("store", "\"kind\": \"postgres\" needs \"url\" (postgresql://…) or \"urlEnv\" (the "
                               + "name of an environment variable holding it)")
            }
            if let text = url, !(text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")) {
                reader.problem(members["url"] != nil ? "store.url" : "store.urlEnv",
                               "must be a postgresql:// URL")
                url = nil
            }
            let (replicas, maxLag) = loadReplicas(members, primary: url, cacheSeconds: cacheSeconds, reader: &reader)
            var settings = StoreSettings(kind: .postgres(url: url ?? "", poolSize: poolSize), cacheSeconds: cacheSeconds,
                                         replicas: replicas, maxReplicaLagSeconds: maxLag)
            if let value = members["preparedStatements"], let named = reader.bool(value) { settings.preparedStatements = named }
            return settings
        default:
            reader.problem("store.kind", "must be \"sqlite\" or \"postgres\", not \"\(kind)\"")
            return StoreSettings()
        }
    }

    /// Reads `store.replicas` (postgresql:// URLs, none the primary's, none twice) and `store.maxReplicaLagSeconds`
    /// (above 0, at most 3600). Replicas refuse a `cacheSeconds` above 0: a state this server cached could be older
    /// than a write another server answered with `Tally-Read-After`, so a read after that write could be stale.
    private static func loadReplicas(_ members: [String: JSONCursor], primary: String?, cacheSeconds: Int?,
                                     reader: inout ConfigurationReader) -> (replicas: [String], maxLag: Double) {
        var maxLag = StoreSettings.defaultMaxReplicaLagSeconds
        if let value = members["maxReplicaLagSeconds"], let seconds = reader.positiveNumber(value) {
            if seconds <= 3_600 { maxLag = seconds } else { reader.problem(value.path, "must be at most 3600") }
        }
        guard let node = members["replicas"], let elements = reader.array(node) else { return ([], maxLag) }
        if elements.count > StoreSettings.maximumReplicas {
            reader.problem(node.path, "lists \(elements.count) replicas; at most \(StoreSettings.maximumReplicas)")
            return ([], maxLag)
        }
        var replicas: [String] = []
        for element in elements {
            guard let url = reader.string(element) else { continue }
            guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
                reader.problem(element.path, "must be a postgresql:// URL")
                continue
            }
            if url == primary {
                reader.problem(element.path, "is the primary's URL (store.url); a replica is another server")
            } else if replicas.contains(url) {
                reader.problem(element.path, "lists the same replica twice")
            } else {
                replicas.append(url)
            }
        }
        if !replicas.isEmpty, let cacheSeconds, cacheSeconds > 0 {
            reader.problem("store.cacheSeconds", "must be 0 with store.replicas: a state cached here could be older "
                           + "than a write another server answered, and a read after it (Tally-Read-After) stale")
        }
        return (replicas, maxLag)
    }
}
