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

    /// Every option `tally market` accepts (`quantity` belongs to `buy`).
    static let names: Set<String> = ["data", "config", "app-config", "account", "device", "locale", "quantity"]

    init(_ arguments: Arguments) throws(UsageError) {
        data = URL(fileURLWithPath: arguments.value("data") ?? "./.tally", isDirectory: true)
        config = arguments.value("config")
        appConfig = arguments.value("app-config")
        account = try Self.name(arguments.value("account") ?? "default", option: "account")
        device = try Self.name(arguments.value("device") ?? "default", option: "device")
        locale = arguments.value("locale")
        json = arguments.flag("json")
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
