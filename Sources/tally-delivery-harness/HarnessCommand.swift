import Foundation
import Tally
import TallyCore
import TallySandbox
import TallySandboxBackend

/// One harness command, parsed from the arguments.
struct HarnessCommand {
    enum Action {
        case initialize(sandbox: URL)
        case buy(sandbox: URL, app: URL, product: String)
        case state(sandbox: URL, app: URL)
    }

    var action: Action
    /// `--server URL --key PUBLIC_KEY --user ID`: the engine's server link, if given.
    var serverLink: ServerLink?

    static let usage = "usage: tally-delivery-harness init SANDBOX_DIR | buy SANDBOX_DIR APP_DIR PRODUCT | "
        + "state SANDBOX_DIR APP_DIR, buy and state optionally followed by --server URL --key PUBLIC_KEY --user ID"

    init(arguments: [String]) throws(HarnessError) {
        var arguments = arguments
        if let index = arguments.firstIndex(of: "--server") {
            let link = Array(arguments[index...])
            arguments.removeSubrange(index...)
            guard link.count == 6, link[2] == "--key", link[4] == "--user", let url = URL(string: link[1]) else {
                throw HarnessError(usage: "unexpected server options \(link); \(Self.usage)")
            }
            serverLink = ServerLink(url: url, publicKey: link[3], appUserId: link[5],
                                    retry: RetryPolicy(initialDelay: 0.05, maxDelay: 0.4))
        }
        let urls = arguments.dropFirst().map { URL(fileURLWithPath: $0) }
        switch (arguments.first, arguments.count) {
        case ("init", 2) where serverLink == nil: action = .initialize(sandbox: urls[0])
        case ("buy", 4): action = .buy(sandbox: urls[0], app: urls[1], product: arguments[3])
        case ("state", 3): action = .state(sandbox: urls[0], app: urls[1])
        default: throw HarnessError(usage: "unexpected arguments \(arguments); \(Self.usage)")
        }
    }

    func run(pause: PauseObserver) async throws {
        switch action {
        case .initialize(let sandbox):
            _ = try SandboxDirectory(url: sandbox).create(
                catalog: HarnessCatalog.catalog, configuration: HarnessCatalog.configuration, start: Date())
        case .buy(let sandbox, let app, let product):
            let store = try await open(sandbox: sandbox, app: app, pause: pause)
            guard case .purchased = try await store.purchase(product) else {
                throw HarnessError("the purchase of \(product) did not end purchased")
            }
            try await printState(of: store, sandbox: sandbox)
        case .state(let sandbox, let app):
            let store = try await open(sandbox: sandbox, app: app, pause: pause)
            try await printState(of: store, sandbox: sandbox)
        }
    }

    /// Opens the engine over the sandbox, with the catalog the sandbox was created with.
    private func open(sandbox: URL, app: URL, pause: PauseObserver) async throws -> Store {
        let saved = try SandboxDirectory(url: sandbox).load()
        return try await Store(backend: SandboxBackend(directory: sandbox), catalog: saved.catalog,
                               configuration: saved.configuration, directory: app, serverLink: serverLink,
                               deliveryObserver: pause.observer)
    }

    private func printState(of store: Store, sandbox: URL) async throws {
        let state = HarnessState(
            coins: await store.balance("coins"), transactions: await store.history.transactions.count,
            unfinished: try SandboxDirectory(url: sandbox).load().unfinished().count,
            premium: await store.isEntitled("premium"), localCoins: await store.localState.balance("coins"),
            source: await store.stateSource.rawValue)
        await store.close()
        print(try state.jsonLine())
    }
}
