import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real `tally serve` for the Market example that trusts a sandbox directory's root (`tally sandbox root`),
/// with a public and a secret key made by `tally serve key`. Killed and its directory removed when released.
final class LinkedServer {
    let directory: URL
    let configFile: URL
    let publicKey: String
    let secretKey: String
    /// The server's signing key's public key (SPKI DER) when it signs its answers (`signing: true`), else nil.
    let serverPublicKey: Data?
    /// The port of the first start; ``start()`` listens there again.
    private(set) var port = 0
    private var process: Process?
    private let output = OutputCollector()
    /// The server's standard error: with `accessLog`, one line per request (`GET /v1/offerings 304 0.2ms`).
    private let log = OutputCollector()
    private let accessLog: Bool

    /// Writes the configuration (the Market example, `bundleId`, `ownership` and `rateLimit` overridden when given;
    /// with `signing`, a key made by `tally serve signing-key` in `signing.privateKeyFile`; with
    /// `requireCustomerTokens`, `customers.requireToken` on with an HS256 secret made by
    /// `tally serve customer-token --new-secret`, see ``customerToken(for:)``) and starts the server. With
    /// `offerings`, the Market example's `offerings.json` seeds the offerings (`offerings.file`); `extraProducts`
    /// (.storekit `products` entries) are added to the server's copy of the catalog only; with `accessLog`, the
    /// server logs each request (``accessLines(_:)``).
    init(trusting sandbox: URL, bundleId: String? = nil, ownership: String? = nil, signing: Bool = false,
         requireCustomerTokens: Bool = false, rateLimit: [String: Any]? = nil, offerings: Bool = false,
         extraProducts: [[String: Any]] = [], accessLog: Bool = false, extra: [String: Any] = [:]) throws {
        self.accessLog = accessLog
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-link-\(UUID().uuidString)")
        configFile = directory.appendingPathComponent("tally-server.json")
        let files = FileManager.default
        try files.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["Market.storekit", "tally.json"] + (offerings ? ["offerings.json"] : []) {
            try files.copyItem(at: TallyProcess.packageRoot.appendingPathComponent("Examples/Market/\(name)"),
                               to: directory.appendingPathComponent(name))
        }
        if !extraProducts.isEmpty {
            let file = directory.appendingPathComponent("Market.storekit")
            var storeKit = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
            storeKit["products"] = (storeKit["products"] as? [[String: Any]] ?? []) + extraProducts
            try JSONSerialization.data(withJSONObject: storeKit).write(to: file)
        }
        let root = try TallyProcess.run(["sandbox", "root", "--data", sandbox.path])
        guard root.status == 0 else { throw CLITestError("tally sandbox root failed: \(root.stderr)") }
        try Data(root.stdout.utf8).write(to: directory.appendingPathComponent("sandbox-root.pem"))
        let (publicKey, publicEntry) = try Self.key(role: "public", name: "app")
        let (secretKey, secretEntry) = try Self.key(role: "secret", name: "backend")
        self.publicKey = publicKey
        self.secretKey = secretKey
        var verification: [String: Any] = ["environments": ["Sandbox"], "roots": ["sandbox-root.pem"]]
        if let bundleId { verification["bundleId"] = bundleId }
        var document: [String: Any] = [
            "storekit": "Market.storekit", "appConfiguration": "tally.json", "verification": verification,
            "keys": [publicEntry, secretEntry],
        ]
        if let ownership { document["ownership"] = ownership }
        if offerings { document["offerings"] = ["file": "offerings.json", "refreshSeconds": 0] }
        if requireCustomerTokens {
            let secret = directory.appendingPathComponent("customer-token.secret")
            let made = try TallyProcess.run(["serve", "customer-token", "--new-secret", secret.path])
            guard made.status == 0 else { throw CLITestError("tally serve customer-token --new-secret: \(made.stderr)") }
            document["customers"] = ["requireToken": true,
                                     "tokenKeys": [["alg": "HS256", "secretFile": secret.lastPathComponent]]]
        }
        if signing {
            let made = try TallyProcess.run(["serve", "signing-key", "--out",
                                             directory.appendingPathComponent("signing.pem").path])
            guard made.status == 0, let key = try made.json()["publicKey"] as? String,
                  let der = Data(base64Encoded: key) else {
                throw CLITestError("tally serve signing-key failed: \(made.stdout) \(made.stderr)")
            }
            serverPublicKey = der
            document["signing"] = ["privateKeyFile": "signing.pem"]
        } else {
            serverPublicKey = nil
        }
        if let rateLimit { document["rateLimit"] = rateLimit }
        document.merge(extra) { _, new in new }
        try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]).write(to: configFile)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A customer token for `appUserId` from `tally serve customer-token` (valid 10 minutes), as the app's backend
    /// would issue one.
    func customerToken(for appUserId: String) throws -> String {
        let made = try TallyProcess.run(["serve", "customer-token", "--config", configFile.path, "--user", appUserId,
                                         "--seconds", "600"])
        guard made.status == 0 else { throw CLITestError("tally serve customer-token: \(made.stderr)") }
        return made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The server's base URL.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// A new key of `role` and its configuration entry (without the key), from `tally serve key`.
    private static func key(role: String, name: String) throws -> (String, [String: Any]) {
        let made = try TallyProcess.run(["serve", "key", "--role", role, "--name", name])
        var entry = try made.json()
        guard let key = entry.removeValue(forKey: "key") as? String else {
            throw CLITestError("tally serve key printed no key: \(made.stdout) \(made.stderr)")
        }
        return (key, entry)
    }

    /// Starts the server: on a free port the first time, on the same port after ``stop()``.
    func start(timeout: TimeInterval = 60) throws {
        guard process == nil else { return }
        let data = directory.appendingPathComponent("data")
        let server = Process()
        server.executableURL = TallyProcess.productsDirectory.appendingPathComponent("tally")
        server.arguments = ["serve", "--data", data.path, "--config", configFile.path, "--listen", "127.0.0.1:\(port)"]
            + (accessLog ? ["--access-log"] : [])
        let stdout = Pipe()
        server.standardOutput = stdout
        if accessLog {
            let stderr = Pipe()
            server.standardError = stderr
            stderr.fileHandleForReading.readabilityHandler = { [log] in log.append($0.availableData) }
        } else {
            server.standardError = FileHandle.nullDevice
        }
        server.standardInput = FileHandle.nullDevice
        output.reset()
        stdout.fileHandleForReading.readabilityHandler = { [output] in output.append($0.availableData) }
        try server.run()
        process = server
        let prefix = "tally serve: listening on http://127.0.0.1:"
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, server.isRunning {
            if let line = output.line(startingWith: prefix), let found = Int(line.dropFirst(prefix.count)) {
                port = found
                return
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        stop()
        throw CLITestError("tally serve did not start: \(output.text)")
    }

    /// The access-log lines (``init(trusting:bundleId:ownership:signing:requireCustomerTokens:rateLimit:offerings:extraProducts:accessLog:)``
    /// with `accessLog`), without their `tally serve: `, that start with `prefix`, such as `GET /v1/offerings 304`.
    func accessLines(_ prefix: String) -> [String] {
        log.text.split(separator: "\n").map { $0.hasPrefix("tally serve: ") ? String($0.dropFirst(13)) : String($0) }
            .filter { $0.hasPrefix(prefix + " ") || $0 == prefix }
    }

    /// Kills the server (SIGKILL) and waits for it to go.
    func stop() {
        guard let server = process else { return }
        if server.isRunning { kill(server.processIdentifier, SIGKILL) }
        server.waitUntilExit()
        process = nil
    }

    /// `GET /v1/customers/{id}`'s `customer` object, read with the secret key.
    func customer(_ appUserId: String) async throws -> [String: Any] {
        let (status, body) = try await request("GET", "/v1/customers/\(appUserId)")
        guard status == 200, let customer = body["customer"] as? [String: Any] else {
            throw CLITestError("GET customer answered \(status): \(body)")
        }
        return customer
    }

    /// The customer's coins on the server.
    func coins(_ appUserId: String) async throws -> Decimal {
        let balances = try await customer(appUserId)["balances"] as? [String: Any] ?? [:]
        return (balances["coins"] as? NSNumber).map { $0.decimalValue } ?? 0
    }

    /// The ids of the customer's transactions in the server's history (`GET …/history`, secret key).
    func transactionIds(_ appUserId: String) async throws -> [String] {
        let (status, body) = try await request("GET", "/v1/customers/\(appUserId)/history?limit=500")
        guard status == 200, let items = body["items"] as? [[String: Any]] else {
            throw CLITestError("GET history answered \(status): \(body)")
        }
        return items.filter { $0["kind"] as? String == "transaction" }.compactMap { $0["transactionId"] as? String }
    }

    /// One request with the secret key; the status and the JSON body.
    func request(_ method: String, _ path: String, body: [String: Any]? = nil) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: URL(string: url.absoluteString + path)!)
        request.httpMethod = method
        request.setValue("Bearer \(secretKey)", forHTTPHeaderField: "Authorization")
        if let body { request.httpBody = try JSONSerialization.data(withJSONObject: body) }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
    }
}

extension OutputCollector {
    /// Forgets what was collected.
    func reset() {
        replace(with: Data())
    }
}
