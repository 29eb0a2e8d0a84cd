import Foundation
import TallyCore
import TallyHTTP
import TallyServer

/// One entitlement API for the whole run, over a real SQLite store in a temporary directory (removed at
/// exit), with the Market example's catalog and `tally.json`. Transactions are verified against Apple's
/// root in the Sandbox for the bundle of the real JWS seeds (`com.goodheartapp`), so seeded posts reach
/// the store.
enum FuzzServer {
    /// The key the input's `p` stands for.
    static let publicKey = "tk_public_fuzz"
    /// The key the input's `s` stands for.
    static let secretKey = "tk_secret_fuzz"
    /// Bodies above this get 413: a base64 receipt seed fits, and the fuzzer (inputs up to 16 KiB) reaches the limit.
    static let maxBodyBytes = 8_192

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

    static let api: EntitlementAPI = {
        let market = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/Market")
        do {
            let catalog = try Catalog(storeKitData: Data(contentsOf: market.appendingPathComponent("Market.storekit")),
                                      fileName: "Market.storekit")
            let app = try AppConfiguration(jsonData: Data(contentsOf: market.appendingPathComponent("tally.json")),
                                           fileName: "tally.json")
            let configuration = ServerConfiguration(
                catalog: catalog, appConfiguration: app,
                verification: VerificationSettings(bundleId: "com.goodheartapp", environments: [.sandbox]),
                ownership: .transfer,
                keys: [APIKeyEntry(name: "ios-app", role: .public, sha256: hex(publicKeySHA256)),
                       APIKeyEntry(name: "backend", role: .secret, sha256: hex(secretKeySHA256))],
                limits: ServerLimits(requestsPerSecond: 1_000_000, burst: 1_000_000, maxBodyBytes: maxBodyBytes))
            let store = try SQLiteCustomerStore(directory: directory, readers: 2)
            return try EntitlementAPI(configuration: configuration, store: store, log: { _ in })
        } catch {
            fatalError("cannot build the fuzzed API from \(market.path): \(error)")
        }
    }()

    /// SHA-256 of ``publicKey`` and ``secretKey`` (`printf %s KEY | sha256sum`).
    static let publicKeySHA256 = "95a9732cf04a69f96ecafb7ed3e60e821f1c821089594c3257043bdbe605fc2f"
    static let secretKeySHA256 = "5acf7ebd6841ea43f51e24125a8932f154d5fcefa330dcc71f0f8926a58f9bac"

    private static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)! }
    }
}
