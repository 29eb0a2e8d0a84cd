import Foundation
import TallyCore
import TallyCrypto
import TallyHTTP
import TallySandbox
@testable import TallyServer
import TallyStorage
import TallyTesting
import Testing

/// One API over a fresh store, with the Market example's catalog, sandbox-signed transactions and a
/// clock the test moves.
struct ServerFixture {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `<package root>/../shared/vectors`, or the nearest ancestor's `shared/vectors` (from a nested worktree).
    static let sharedVectors: URL = {
        var directory = packageRoot.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("shared/vectors")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors")
    }()
    static let marketDirectory = packageRoot.appendingPathComponent("Examples/Market")
    static let publicKey = "tk_public_test-key"
    static let secretKey = "tk_secret_test-key"
    static let start = Date(millisecondsSince1970: 1_796_000_000_000)  // 2026-11-30

    let api: EntitlementAPI
    let store: SwitchableStore
    let directory: TemporaryDirectory
    /// The database when the fixture runs on a store of a chosen kind (``make(_:ownership:)``); nil: SQLite in
    /// ``directory``.
    let database: StoreUnderTest?
    let clock: TestClock
    let signer: SandboxSigner
    /// What the API wrote to the operator's log.
    let logged = LogBook()
    /// The access log: a line per answered request.
    let accessLogged = LogBook()

    init(ownership: OwnershipPolicy = .transfer, limits: ServerLimits = ServerLimits(requestsPerSecond: 1000, burst: 1000),
         environments: [StoreEnvironment] = [.sandbox], bundleId: String = "com.example.market",
         catalog: Catalog? = nil, appConfiguration: AppConfiguration? = nil,
         database: StoreUnderTest? = nil, signing: SigningSettings? = nil,
         offerings: OfferingsSettings = OfferingsSettings()) throws {
        self.database = database
        let authority = try Signing.authority()
        signer = try authority.signer()
        let root = try #require(Certificate(der: authority.rootDER))
        var configuration = ServerConfiguration(
            catalog: try catalog ?? Self.catalog(), appConfiguration: try appConfiguration ?? Self.appConfiguration(),
            verification: VerificationSettings(bundleId: bundleId, appAppleId: 1_234_567_890,
                                               environments: environments, roots: [root]),
            ownership: ownership, keys: Self.keys, limits: limits)
        configuration.signing = signing
        configuration.offerings = offerings
        clock = TestClock(Self.start)
        directory = try TemporaryDirectory()
        let credits = CurrencyCredits(catalog: configuration.catalog, configuration: configuration.appConfiguration)
        if let database {
            store = SwitchableStore(try database.open(readers: 2, credits: credits))
        } else {
            store = SwitchableStore(try directory.open(readers: 2, credits: credits))
        }
        // The rate buckets refill on this fixture's clock too, so tests move them without sleeping.
        let clock = self.clock
        api = try EntitlementAPI(configuration: configuration, store: store, clock: clock.serverClock,
                                 log: logged.append, accessLog: accessLogged.append,
                                 uptime: { clock.now.timeIntervalSince1970 })
    }

    /// A fixture on a fresh store of `kind` (see ``StoreUnderTest`` for PostgreSQL's absence).
    static func make(_ kind: StoreKind, ownership: OwnershipPolicy = .transfer,
                     test: String = #function) throws -> ServerFixture {
        let database = try StoreUnderTest(kind, test: test)
        return try ServerFixture(ownership: ownership, database: database)
    }

    static var keys: [APIKeyEntry] {
        [APIKeyEntry(name: "ios-app", role: .public, sha256: ECDSA.sha256(Array(publicKey.utf8))),
         APIKeyEntry(name: "backend", role: .secret, sha256: ECDSA.sha256(Array(secretKey.utf8)))]
    }

    static func catalog() throws -> Catalog {
        let url = marketDirectory.appendingPathComponent("Market.storekit")
        return try Catalog(storeKitData: Data(contentsOf: url), fileName: "Market.storekit")
    }

    static func appConfiguration() throws -> AppConfiguration {
        try AppConfiguration(jsonData: Data(contentsOf: marketDirectory.appendingPathComponent("tally.json")),
                             fileName: "tally.json")
    }

    /// Sends a request straight to the handler.
    func send(_ method: String, _ path: String, key: String? = ServerFixture.secretKey, body: String? = nil,
              query: [String: String] = [:], headers extra: [String: String] = [:]) -> Reply {
        // HTTPRequest holds names lowercased, as the HTTP layer delivers them.
        var headers = Dictionary(extra.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        if let key { headers["authorization"] = "Bearer \(key)" }
        let request = HTTPRequest(method: method, path: path, query: query, headers: headers,
                                  body: Array((body ?? "").utf8))
        return Reply(api.handle(request))
    }

    /// Posts a signed transaction for `user`.
    func post(_ transaction: StoreTransaction, for user: String, key: String = ServerFixture.publicKey) throws -> Reply {
        let jws = try signer.signTransaction(transaction)
        return send("POST", "/v1/customers/\(Self.escape(user))/transactions", key: key,
                    body: #"{"signedTransaction":"\#(jws)"}"#)
    }

    /// `user` percent-encoded as one path segment.
    static func escape(_ user: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return user.addingPercentEncoding(withAllowedCharacters: allowed) ?? user
    }
}
