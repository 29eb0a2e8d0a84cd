import Foundation
import TallyCore
import TallySandbox

/// The temporary world the server benchmark runs in: the Market example's catalog, a sandbox certificate
/// authority whose root the server trusts, a fresh secret key and a `tally-server.json` (docs/server.md).
struct ServerBenchSetup {
    static let bundleId = "com.example.market"

    let folder: URL
    let config: URL
    /// The bearer key (a secret key).
    let key: String
    let signer: SandboxSigner
    let now = Date()
    /// The server's `threads` and `writeThreads`.
    let threads: Int, writeThreads: Int

    /// Writes everything into `folder`, asking `tally serve key` for the key. `TALLY_BENCH_SERVER_THREADS` and
    /// `TALLY_BENCH_WRITE_THREADS` override `threads` and `writeThreads`.
    init(tally: URL, folder: URL, threads: Int = 4, writeThreads: Int = 32) throws {
        self.folder = folder
        let environment = ProcessInfo.processInfo.environment
        self.threads = environment["TALLY_BENCH_SERVER_THREADS"].flatMap { Int($0) } ?? threads
        self.writeThreads = environment["TALLY_BENCH_WRITE_THREADS"].flatMap { Int($0) } ?? writeThreads
        let example = BenchTools.packageRoot.appendingPathComponent("Examples/Market")
        for name in ["Market.storekit", "tally.json", "offerings.json"] {
            try FileManager.default.copyItem(at: example.appendingPathComponent(name),
                                             to: folder.appendingPathComponent(name))
        }
        let authority = try SandboxCertificateAuthority.generate(now: now)
        signer = try authority.signer()
        try authority.rootPEM.write(to: folder.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)

        let keyJSON = try BenchTools.output(of: tally, ["serve", "key", "--role", "secret", "--name", "bench"])
        guard let entry = try JSONSerialization.jsonObject(with: Data(keyJSON.utf8)) as? [String: Any],
            let key = entry["key"] as? String, let sha256 = entry["sha256"] as? String
        else { throw BenchError("tally serve key printed no key: \(keyJSON)") }
        self.key = key

        let configuration: [String: Any] = [
            "listen": "127.0.0.1:0",
            "storekit": "Market.storekit",
            "appConfiguration": "tally.json",
            "verification": ["bundleId": Self.bundleId, "environments": ["Sandbox"], "roots": ["root.pem"]],
            "keys": [["name": "bench", "role": "secret", "sha256": sha256]],
            "rateLimit": ["requestsPerSecond": 10_000_000, "burst": 1_000_000],
            "threads": self.threads,
            "writeThreads": self.writeThreads,
            "offerings": ["file": "offerings.json"],
        ]
        config = folder.appendingPathComponent("tally-server.json")
        try JSONSerialization.data(withJSONObject: configuration, options: [.prettyPrinted, .sortedKeys])
            .write(to: config)
    }

    /// The `Authorization` header value.
    var authorization: String { "Bearer \(key)" }

    /// A signed sandbox transaction for `productId`, shaped as a device's (``DeviceTransaction``;
    /// `{"signedTransaction": …}` is what gets posted).
    func signedTransaction(id: Int, productId: String, type: ProductType) throws -> String {
        var transaction = DeviceTransaction.consumable(
            id: String(2_000_000_500_000_000 + id), bundleId: Self.bundleId, productId: productId, now: now)
        transaction.type = type
        return try signer.signTransaction(transaction)
    }

    /// The JSON body posting `jws`.
    static func postBody(_ jws: String) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["signedTransaction": jws])
    }
}
