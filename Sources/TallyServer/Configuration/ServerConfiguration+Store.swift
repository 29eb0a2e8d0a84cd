import Foundation
import TallyCore

extension ServerConfiguration {
    static let storeKeys = ["kind", "url", "urlEnv", "poolSize", "cacheSeconds"]

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
            for key in ["url", "urlEnv", "poolSize"] where members[key] != nil {
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
            return StoreSettings(kind: .postgres(url: url ?? "", poolSize: poolSize), cacheSeconds: cacheSeconds)
        default:
            reader.problem("store.kind", "must be \"sqlite\" or \"postgres\", not \"\(kind)\"")
            return StoreSettings()
        }
    }
}
