import Foundation
import TallyCore
import TallySandbox

/// The options every sandbox command shares, and loading/saving the store they name.
struct SandboxContext {
    /// The data directory (`--data`, default `./.tally`).
    let directory: SandboxDirectory
    /// The data directory's URL.
    let url: URL
    /// `--account`, default `default`.
    let account: String
    /// `--device`, default `default`.
    let device: String
    /// `--json`.
    let json: Bool

    /// Options every command accepts.
    static let commonOptions: Set<String> = ["data", "account", "device", "json"]

    init(_ arguments: Arguments) {
        url = URL(fileURLWithPath: arguments.value("data") ?? "./.tally", isDirectory: true)
        directory = SandboxDirectory(url: url)
        account = arguments.value("account") ?? "default"
        device = arguments.value("device") ?? "default"
        json = arguments.flag("json")
    }

    /// Loads the store, runs `body`, and saves the store if `body` returns normally, holding the
    /// directory's lock so another process's change is never lost.
    func mutate<T>(_ body: (inout Sandbox) throws -> T) throws -> T {
        try directory.update(body)
    }

    /// As ``mutate(_:)``, reading and writing only the store-wide state and `accounts`; for commands that act on
    /// those accounts only, so their cost does not grow with the rest of the sandbox.
    func mutate<T>(accounts: [String], _ body: (inout Sandbox) throws -> T) throws -> T {
        try directory.update(accounts: accounts, body)
    }

    /// Runs a store call whose failure is kept too (an injected fault taken and logged), reading only the
    /// store-wide state and `accounts`; see ``SandboxDirectory/answer(accounts:_:)``.
    func answer<T>(accounts: [String], _ body: (inout Sandbox) throws(SandboxError) -> T) throws -> T {
        try directory.answer(accounts: accounts, body)
    }

    /// Loads the store-wide state and the `--account` account read-only (with that account's events).
    func load() throws -> Sandbox { try directory.load(account: account) }

    /// Prints `value` as JSON.
    func printJSON<T: Encodable>(_ value: T) throws {
        print(try Output.json(value))
    }
}

extension Arguments {
    /// Parses sandbox arguments: `--json` is the only flag.
    static func sandbox(_ words: [String], allowed: Set<String> = []) throws(UsageError) -> Arguments {
        try Arguments(words, flags: ["json"], options: SandboxContext.commonOptions.union(allowed))
    }
}
