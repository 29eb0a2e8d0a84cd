import Foundation

/// The options of `tally market`, which may come anywhere on the line.
struct MarketOptions: Sendable {
    /// `--data DIR`, default `./.tally`: the sandbox shared with `tally sandbox`.
    var data: URL
    /// `--config FILE.storekit`: creates the sandbox when `data` has none.
    var config: String?
    /// `--app-config tally.json`, with `config`.
    var appConfig: String?
    /// `--account A`, default `default`.
    var account: String
    /// `--device D`, default `default`.
    var device: String
    /// `--locale L`: overrides the sandbox's locale for names and prices.
    var locale: String?
    /// `--json`.
    var json: Bool
    /// `--server URL --key PUBLIC_KEY [--user ID]`: the market linked to a running `tally serve`.
    var link: Link?
    /// `--backend-key SECRET`: the server's secret key, so this demo can play the app's backend for spends.
    var backendKey: String?
    /// `--customer-token-secret FILE`: the server's HS256 customer-token secret (`customers.tokenKeys`), so this demo
    /// can play the app's backend issuing customer tokens (audience `tally`).
    var customerTokenSecret: URL?

    /// The server the market is linked to.
    struct Link: Sendable {
        /// `--server URL`, http or https.
        var url: URL
        /// `--key`: a public key of the server.
        var publicKey: String
        /// `--user`: the customer's `appUserId`; nil: the engine's own (the customer it spoke for last in the app's
        /// directory, else a new anonymous id; `login`/`logout` change it).
        var appUserId: String?
        /// `--server-signing-key BASE64`: the server's signing public key (SPKI DER or x9.63, as
        /// `tally serve signing-key` prints it), pinned in the link; nil: answers believed unchecked.
        var serverPublicKey: Data? = nil
    }

    /// Every option `tally market` accepts (`quantity` belongs to `buy`).
    static let names: Set<String> = ["data", "config", "app-config", "account", "device", "locale", "quantity",
                                     "server", "key", "user", "backend-key", "customer-token-secret",
                                     "server-signing-key", "placement", "offer", "win-back"]

    init(_ arguments: Arguments) throws(UsageError) {
        data = URL(fileURLWithPath: arguments.value("data") ?? "./.tally", isDirectory: true)
        config = arguments.value("config")
        appConfig = arguments.value("app-config")
        account = try Self.name(arguments.value("account") ?? "default", option: "account")
        device = try Self.name(arguments.value("device") ?? "default", option: "device")
        locale = arguments.value("locale")
        json = arguments.flag("json")
        link = try Self.link(arguments)
        if arguments.value("server-signing-key") != nil, link == nil {
            throw UsageError("--server-signing-key needs --server and --key")
        }
        backendKey = arguments.value("backend-key")
        if backendKey != nil, link == nil { throw UsageError("--backend-key needs --server and --key") }
        if backendKey?.isEmpty == true { throw UsageError("--backend-key is empty") }
        customerTokenSecret = arguments.value("customer-token-secret").map { URL(fileURLWithPath: $0) }
        if customerTokenSecret != nil, link == nil {
            throw UsageError("--customer-token-secret needs --server and --key")
        }
    }

    /// `--server` and `--key` both or neither, `--user` (optional) only with them.
    private static func link(_ arguments: Arguments) throws(UsageError) -> Link? {
        let server = arguments.value("server"), key = arguments.value("key"), user = arguments.value("user")
        guard server != nil || key != nil || user != nil else { return nil }
        guard let server, let key else {
            throw UsageError("--server and --key go together (with --user if the customer is known; without it the "
                + "customer is anonymous until 'login'): the server's URL, its public key and the customer's appUserId")
        }
        guard let url = URL(string: server), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false else {
            throw UsageError("--server '\(server)' is not an http or https URL (e.g. http://127.0.0.1:8080)")
        }
        guard !key.isEmpty else { throw UsageError("--key is empty") }
        if user?.isEmpty == true { throw UsageError("--user is empty") }
        var serverPublicKey: Data?
        if let text = arguments.value("server-signing-key") {
            guard let der = Data(base64Encoded: text), !der.isEmpty else {
                throw UsageError("--server-signing-key is not base64 (the publicKey `tally serve signing-key` printed)")
            }
            serverPublicKey = der
        }
        return Link(url: url, publicKey: key, appUserId: user, serverPublicKey: serverPublicKey)
    }

    /// The folder of this account's install on this device: `DIR/apps/<account>/<device>`.
    var appDirectory: URL {
        data.appendingPathComponent("apps", isDirectory: true).appendingPathComponent(account, isDirectory: true)
            .appendingPathComponent(device, isDirectory: true)
    }

    /// Account and device names become folder names: letters, digits, `.`, `-`, `_`, `@` only.
    private static func name(_ text: String, option: String) throws(UsageError) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-_@"))
        guard !text.isEmpty, text != ".", text != "..",
              text.unicodeScalars.allSatisfy({ allowed.contains($0) }) else {
            throw UsageError("--\(option) '\(text)' must be letters, digits, '.', '-', '_' or '@'")
        }
        return text
    }
}
