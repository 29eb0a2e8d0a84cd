import CFuzzerDriver
import Foundation
import Synchronization
import TallyCore
import TallyHTTP
import TallySQLiteStore
import TallyServer
import TallyStorage
import TallyVerify

/// The entitlement APIs of the run over real SQLite stores in a temporary directory (removed at exit), with
/// the Market example's catalog and `tally.json`. Both are rebuilt over fresh stores every
/// ``requestsPerGeneration`` requests, so state stays small enough to keep the run fast (and a crash
/// depends on at most that many earlier inputs), and closing a used store runs under LeakSanitizer too. Transactions verify against
/// Apple's root and the harness's sandbox root, in the Sandbox, for the bundle of the real JWS seeds
/// (`com.goodheartapp`), so seeded and harness-signed posts reach the store.
enum FuzzServer {
    /// Limits no fuzzed request reaches except the body size, so every input exercises its route.
    static func unlimited(maxBodyBytes: Int) -> ServerLimits {
        var limits = ServerLimits(requestsPerSecond: 1_000_000, burst: 1_000_000, maxBodyBytes: maxBodyBytes)
        limits.publicKeyRequestsPerSecond = 1_000_000
        limits.publicKeyBurst = 1_000_000
        limits.unknownKeyRequestsPerSecond = 1_000_000
        limits.unknownKeyBurst = 1_000_000
        return limits
    }

    /// The key the input's `p` stands for.
    static let publicKey = "tk_public_fuzz"
    /// The key the input's `s` stands for.
    static let secretKey = "tk_secret_fuzz"
    /// The bundle id the APIs accept (that of `corpus/transaction.jws`).
    static let bundleId = "com.goodheartapp"
    /// Bodies above this get 413: a base64 receipt seed fits, and the fuzzer (inputs up to 16 KiB) reaches it.
    static let maxBodyBytes = 8_192

    /// Requests the APIs answer before they are rebuilt over fresh stores.
    static let requestsPerGeneration = 1_000

    private struct Generation {
        var apis: [OwnershipPolicy: EntitlementAPI] = [:]
        var directory: String?
        var requests = 0
        var count = 0
    }

    private static let generation = Mutex(Generation())

    /// The API with `ownership` (`transfer` for first byte `0x03`, `keep` for `0x04`) of the current generation.
    static func api(_ ownership: OwnershipPolicy) -> EntitlementAPI {
        generation.withLock { generation in
            if generation.apis.isEmpty || generation.requests >= requestsPerGeneration {
                // Live for the whole generation, but held where LeakSanitizer cannot see them (CFuzzerDriver.h).
                __lsan_disable()
                defer { __lsan_enable() }
                generation.apis = [:]
                if let old = generation.directory { try? FileManager.default.removeItem(atPath: old) }
                let path = (directory as NSString).appendingPathComponent("\(generation.count)")
                generation.count += 1
                generation.directory = path
                for policy in OwnershipPolicy.allCases { generation.apis[policy] = makeAPI(policy, in: path) }
                generation.requests = 0
            }
            generation.requests += 1
            guard let api = generation.apis[ownership] else { fatalError("no \(ownership) API") }
            return api
        }
    }

    static let directory: String = {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("tally-fuzz-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create \(path): \(error)")
        }
        atexit { try? FileManager.default.removeItem(atPath: FuzzServer.directory) }
        return path
    }()

    /// The Market example's catalog.
    static let catalog: Catalog = {
        do {
            return try Catalog(storeKitData: Data(contentsOf: market.appendingPathComponent("Market.storekit")),
                               fileName: "Market.storekit")
        } catch {
            fatalError("cannot read the Market catalog: \(error)")
        }
    }()

    private static let market = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Market")

    private static func makeAPI(_ ownership: OwnershipPolicy, in generationDirectory: String) -> EntitlementAPI {
        do {
            let app = try AppConfiguration(jsonData: Data(contentsOf: market.appendingPathComponent("tally.json")),
                                           fileName: "tally.json")
            let roots = [AppleRootCertificates.appleRootCAG3] + [FuzzSigning.root].compactMap { $0 }
            let configuration = ServerConfiguration(
                catalog: catalog, appConfiguration: app,
                verification: VerificationSettings(bundleId: bundleId, environments: [.sandbox], roots: roots),
                ownership: ownership,
                keys: [APIKeyEntry(name: "ios-app", role: .public, sha256: ECDSA.sha256(Array(publicKey.utf8))),
                       APIKeyEntry(name: "backend", role: .secret, sha256: ECDSA.sha256(Array(secretKey.utf8)))],
                limits: FuzzServer.unlimited(maxBodyBytes: maxBodyBytes))
            let path = (generationDirectory as NSString).appendingPathComponent(ownership.rawValue)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let credits = CurrencyCredits(catalog: configuration.catalog, configuration: configuration.appConfiguration)
            let store = try SQLiteCustomerStore(directory: path, credits: credits, readers: 2)
            return try EntitlementAPI(configuration: configuration, store: store, log: { _ in })
        } catch {
            fatalError("cannot build the fuzzed API from \(market.path): \(error)")
        }
    }
}
