import Foundation
import Synchronization
import Tally
import TallyCore
import TallySandbox
import TallySandboxBackend

/// The sandbox backend over a fresh sandbox directory, driven as `tally sandbox` drives it.
final class SandboxWorld: BackendWorld {
    let name = "sandbox"
    let market: Market
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-contract-\(UUID().uuidString)")
    let sandbox: SandboxDirectory
    let reportsDeclines = true
    private let forging = Mutex(false)
    private let forger: SandboxSigner

    init() throws {
        market = try Market.load()
        sandbox = SandboxDirectory(url: directory)
        _ = try sandbox.create(catalog: market.catalog, configuration: market.configuration, start: Date())
        forger = try SandboxCertificateAuthority.generate(now: Date()).signer()
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func launch() throws -> any StoreBackend {
        ForgingBackend(base: SandboxBackend(directory: directory, pollInterval: 0.02), world: self)
    }

    func enableAskToBuy() throws { try sandbox.update { $0.set(.askToBuy, enabled: true) } }

    func cancelNextPurchase() throws { try sandbox.update { $0.failNext(.purchase, with: .cancelled) } }

    func forgeNextPurchase() throws { forging.withLock { $0 = true } }

    /// Takes the armed forgery, if any.
    func takeForgery() -> Bool { forging.withLock { armed in
        defer { armed = false }
        return armed
    } }

    /// A transaction for `request` signed by an authority the sandbox never trusted.
    func forged(_ request: PurchaseRequest) throws -> TransactionUpdate {
        let product = try market.product(request.productId)
        let transaction = TallyCore.StoreTransaction(
            transactionId: "9\(Int.random(in: 100_000...999_999))", bundleId: market.configuration.bundleId,
            productId: product.id, purchaseDate: Date(), quantity: request.quantity, type: product.kind.transactionType,
            signedDate: Date(), environment: .sandbox)
        return TransactionUpdate(transaction: transaction, jwsRepresentation: try forger.signTransaction(transaction))
    }

    func approveOldestPending() throws {
        try sandbox.update { sandbox in
            guard let pending = sandbox.pendingPurchases().first else { throw StoreError(.backend, "nothing pending") }
            _ = try sandbox.approve(purchaseId: pending.purchaseId)
        }
    }

    func declineOldestPending() throws {
        try sandbox.update { sandbox in
            guard let pending = sandbox.pendingPurchases().first else { throw StoreError(.backend, "nothing pending") }
            try sandbox.decline(purchaseId: pending.purchaseId)
        }
    }

    func refund(transactionId: String) throws {
        try sandbox.update { _ = try $0.refund(transactionId: transactionId) }
    }

    /// A month passes on the sandbox's clock (the engine reads it through the backend): the subscription renews.
    func renew(productId: String) throws {
        try sandbox.update { $0.advance(by: SandboxDuration(1, .month)) }
    }

    func turnOffAutoRenew(productId: String) throws {
        try sandbox.update { try $0.setAutoRenew(productId: productId, enabled: false) }
    }

    func forbidPayments() throws { try sandbox.update { $0.set(.parentalControls, enabled: true) } }

    func unfinishedCount() throws -> Int { try sandbox.load().unfinished().count }
}

/// The sandbox backend, except that an armed forgery answers the next purchase with a transaction signed by a
/// foreign authority (what an attacker's hooked store would hand the app) without the sandbox selling anything.
struct ForgingBackend: StoreBackend {
    let base: SandboxBackend
    let world: SandboxWorld

    func purchase(_ request: PurchaseRequest) async throws -> BackendPurchaseResult {
        if world.takeForgery() { return .purchased(try world.forged(request)) }
        return try await base.purchase(request)
    }

    func products(for ids: [String]) async throws -> BackendProducts { try await base.products(for: ids) }
    func restore() async throws -> [TransactionUpdate] { try await base.restore() }
    func unfinished() async throws -> [TransactionUpdate] { try await base.unfinished() }
    func finish(transactionId: String) async throws { try await base.finish(transactionId: transactionId) }
    func transactionUpdates() -> AsyncStream<TransactionUpdate> { base.transactionUpdates() }
    func subscriptionStatuses() async throws -> [SignedRenewalInfo] { try await base.subscriptionStatuses() }
    var canMakePayments: Bool { get async { await base.canMakePayments } }
    var storefront: String? { get async { await base.storefront } }
    var clock: StoreClock { base.clock }
    var transactionVerifier: any TransactionVerifier { base.transactionVerifier }
    func declinedPurchases() async throws -> [String] { try await base.declinedPurchases() }
    func purchaseDeclines() -> AsyncStream<String> { base.purchaseDeclines() }
    func renewalInfoUpdates() -> AsyncStream<SignedRenewalInfo> { base.renewalInfoUpdates() }
    func allTransactions() async throws -> [TransactionUpdate] { try await base.allTransactions() }
}
