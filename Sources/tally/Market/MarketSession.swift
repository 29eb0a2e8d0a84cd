import Foundation
import Tally
import TallyCore
import TallySandbox
import TallySandboxBackend

/// An open market: the engine's store for one account on one device, over the sandbox in `--data`, linked to
/// a `tally serve` with `--server`.
struct MarketSession: Sendable {
    /// The engine.
    let store: Store
    /// The options the market was opened with.
    let options: MarketOptions
    /// The locale of names and prices.
    let locale: String
    /// Whether the interactive market waits at its prompt (the event printer redraws it).
    let prompt = MarketPrompt()
    /// Seconds between two asks of the server's offerings at the market's refresh (its clock watch refreshes
    /// every second).
    static let offeringsRefresh: TimeInterval = 5

    /// Opens the market: creates the sandbox from `--config` when the directory has none, then opens the
    /// store in `DIR/apps/<account>/<device>` (delivering what arrived while the market was closed).
    static func open(_ options: MarketOptions) async throws -> MarketSession {
        let directory = SandboxDirectory(url: options.data)
        let sandbox = try loadOrCreate(directory, options)
        let locale = options.locale ?? sandbox.settings.locale
        let backend = SandboxBackend(directory: options.data, account: options.account, device: options.device)
        let tokens = try options.customerTokenSecret.map(MarketCustomerTokens.init(secretFile:))
        let serverLink = options.link.map { link in
            var serverLink = ServerLink(url: link.url, publicKey: link.publicKey, appUserId: link.appUserId,
                                        retry: RetryPolicy(maxDelay: 30), requestTimeout: 5, customerToken: tokens?.provider,
                                        serverPublicKey: link.serverPublicKey,
                                        offeringsRefreshInterval: MarketSession.offeringsRefresh)
            // With --backend-key the demo's app backend signs offers; without it the engine asks the server with
            // the customer token, as the server's offers policy allows.
            if let secret = options.backendKey {
                let backend = MarketAppBackend(url: link.url, secretKey: secret)
                serverLink.promotionalOfferSigner = backend.promotionalOfferSigner
                serverLink.introductoryEligibilitySigner = backend.introductoryEligibilitySigner
            }
            return serverLink
        }
        let store = try await Store(backend: backend, catalog: sandbox.catalog, configuration: sandbox.configuration,
                                    directory: options.appDirectory, locale: locale, serverLink: serverLink)
        if tokens != nil {
            Output.error("note: demo only — this market holds the customer-token secret (--customer-token-secret) to "
                + "play the app's backend, which issues each signed-in user a short-lived token; a real app asks its "
                + "backend for one")
        }
        if options.backendKey != nil {
            Output.error("note: demo only — this market holds the server's secret key (--backend-key) to play the "
                + "app's backend for spends; a real app never ships it: the app asks its backend, which spends with "
                + "POST /v1/customers/{appUserId}/currencies/{currency}/spend")
        }
        // What the engine found and worked around while opening (a damaged or forged customer file), never silent.
        for diagnostic in await store.diagnostics {
            Output.error("warning: \(diagnostic.kind.rawValue): \(diagnostic.message)")
        }
        return MarketSession(store: store, options: options, locale: locale)
    }

    /// The sandbox in the directory, created from `--config` (like `tally sandbox init`) when missing.
    private static func loadOrCreate(_ directory: SandboxDirectory, _ options: MarketOptions) throws -> Sandbox {
        if directory.holdsSandbox {
            if options.config != nil {
                Output.error("note: using the sandbox already in \(options.data.path); --config only creates one")
            }
            return try directory.load(account: options.account, events: false)
        }
        guard let configPath = options.config else {
            throw UsageError("no sandbox in \(options.data.path): pass --config FILE.storekit to create one "
                + "(or run 'tally sandbox init')")
        }
        let catalog = try ConfigurationFiles.catalog(at: configPath)
        let configuration = try ConfigurationFiles.appConfiguration(
            at: options.appConfig, besideStoreKit: configPath, catalog: catalog)
        let start = Date()
        let sandbox = try directory.create(catalog: catalog, configuration: configuration, start: start)
        _ = try SandboxCertificateAuthority.loadOrGenerate(in: options.data, now: start)
        for warning in catalog.warnings { Output.error("warning: \(warning)") }
        Output.error("Sandbox created in \(options.data.path) from \(URL(fileURLWithPath: configPath).lastPathComponent)")
        return sandbox
    }
}
