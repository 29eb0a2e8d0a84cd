import Foundation
import Tally
import TallyCore
import TallySandbox
import TallySandboxBackend

/// One harness command, parsed from the arguments.
enum HarnessCommand {
    case initialize(sandbox: URL)
    case buy(sandbox: URL, app: URL, product: String)
    case state(sandbox: URL, app: URL)

    static let usage = "usage: tally-delivery-harness init SANDBOX_DIR | buy SANDBOX_DIR APP_DIR PRODUCT | state SANDBOX_DIR APP_DIR"

    init(arguments: [String]) throws(HarnessError) {
        let urls = arguments.dropFirst().map { URL(fileURLWithPath: $0) }
        switch (arguments.first, arguments.count) {
        case ("init", 2): self = .initialize(sandbox: urls[0])
        case ("buy", 4): self = .buy(sandbox: urls[0], app: urls[1], product: arguments[3])
        case ("state", 3): self = .state(sandbox: urls[0], app: urls[1])
        default: throw HarnessError(usage: "unexpected arguments \(arguments); \(Self.usage)")
        }
    }

    func run(pause: PauseObserver) async throws {
        switch self {
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
                               configuration: saved.configuration, directory: app,
                               deliveryObserver: pause.observer)
    }

    private func printState(of store: Store, sandbox: URL) async throws {
        let state = HarnessState(
            coins: await store.balance("coins"), transactions: await store.history.transactions.count,
            unfinished: try SandboxDirectory(url: sandbox).load().unfinished().count,
            premium: await store.isEntitled("premium"))
        await store.close()
        print(try state.jsonLine())
    }
}
