import Foundation
import Tally
import TallyCore
import TallySandbox
import TallySandboxBackend

/// A simulated App Store (TallySandbox) in a fresh temporary directory, for an app's tests: the engine's
/// `SandboxBackend` over it signs every transaction with the sandbox's own certificate authority and verifies
/// with TallyVerify, as `tally sandbox` does, so a test runs the app's purchase code against real signed
/// transactions without a device. The test drives the App Store side through ``update(_:)`` (Ask to Buy, faults,
/// refunds, the clock) or with `tally sandbox … --data` on ``directory``. ``remove()`` (or the end of the value's
/// life) deletes the directory.
///
/// Links OpenSSL and SQLite (through TallySandbox), so it is a product of its own (`TallySandboxTesting`), apart
/// from `TallyTesting` which an app's on-device tests can link.
///
/// ```swift
/// let sandbox = try TemporarySandbox(catalog: catalog, configuration: configuration)
/// let store = try await Store(backend: sandbox.backend(), catalog: catalog, configuration: configuration,
///                             directory: sandbox.appDirectory())
/// try sandbox.update { $0.set(.askToBuy, enabled: true) }
/// ```
public final class TemporarySandbox: Sendable {
    /// The sandbox's data directory (what `tally sandbox --data` takes).
    public let directory: URL
    /// The catalog the sandbox sells.
    public let catalog: Catalog
    /// The app configuration the sandbox was created with.
    public let configuration: AppConfiguration
    private let sandbox: SandboxDirectory

    /// Creates a sandbox selling `catalog`, its clock starting at `start`, in a new temporary directory.
    public init(catalog: Catalog, configuration: AppConfiguration, start: Date = Date()) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-sandbox-\(UUID().uuidString)")
        self.catalog = catalog
        self.configuration = configuration
        sandbox = SandboxDirectory(url: directory)
        _ = try sandbox.create(catalog: catalog, configuration: configuration, start: start)
    }

    /// Creates a sandbox from an Xcode `.storekit` file and its app's `tally.json`, as `tally sandbox init
    /// --config FILE.storekit --app-config tally.json` does.
    public convenience init(storeKitFile: URL, appConfigurationFile: URL, start: Date = Date()) throws {
        let catalog = try Catalog(storeKitData: Data(contentsOf: storeKitFile), fileName: storeKitFile.path)
        let configuration = try AppConfiguration(jsonData: Data(contentsOf: appConfigurationFile),
                                                 fileName: appConfigurationFile.path)
        try self.init(catalog: catalog, configuration: configuration, start: start)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The engine's backend for one install: `account` is the App Store account, `device` the install; each pair is
    /// its own device of that account. `pollInterval` is how often, in seconds, it looks for changes made outside
    /// a purchase call (approvals, renewals, refunds).
    public func backend(account: String = "default", device: String = "default",
                        pollInterval: TimeInterval = 0.02) -> SandboxBackend {
        SandboxBackend(directory: directory, account: account, device: device, pollInterval: pollInterval)
    }

    /// A fresh directory for one install's engine data (the `Store`'s `directory`), inside ``directory``.
    public func appDirectory(account: String = "default", device: String = "default") -> URL {
        directory.appendingPathComponent("apps/\(account)/\(device)")
    }

    /// Changes the App Store's state in one transaction, as a `tally sandbox` command does: `$0.set(.askToBuy,
    /// enabled: true)`, `$0.failNext(.purchase, with: .cancelled)`, `$0.approve(purchaseId:)`,
    /// `$0.refund(transactionId:)`, `$0.advance(by: SandboxDuration(1, .month))`.
    @discardableResult
    public func update<T>(_ body: (inout Sandbox) throws -> T) throws -> T {
        try sandbox.update(body)
    }

    /// The whole saved sandbox (its state, accounts, transactions and events), read now.
    public func load() throws -> Sandbox {
        try sandbox.load()
    }

    /// Deletes the directory now.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
