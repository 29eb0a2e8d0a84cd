import Foundation
import Synchronization
import Tally
import TallyCore

/// A store a backend talks to, as the contract drives it: it makes the backend of each launch of the app and acts
/// as the store does outside the app (a parent approving, Apple refunding). Each world does it its own way (the
/// sandbox through its directory, StoreKit's stand-in through its script); the contract's expectations are the same.
protocol BackendWorld: AnyObject, Sendable {
    /// The world's name in test output.
    var name: String { get }
    /// The Market's catalog and configuration (Examples/Market).
    var market: Market { get }
    /// A backend for one launch of the app: each call a fresh instance over the same store.
    func launch() throws -> any StoreBackend
    /// Every purchase from now on waits for a parent (Ask to Buy).
    func enableAskToBuy() throws
    /// The next purchase sheet is cancelled by the customer.
    func cancelNextPurchase() throws
    /// The next purchase answers a transaction the store did not sign (a forgery).
    func forgeNextPurchase() throws
    /// A parent approves the oldest pending purchase: its transaction arrives outside the purchase call.
    func approveOldestPending() throws
    /// A parent declines the oldest pending purchase: no transaction is made.
    func declineOldestPending() throws
    /// Apple refunds a transaction; the refunded record arrives outside any call.
    func refund(transactionId: String) throws
    /// The App Store renews a subscription: a renewal transaction arrives outside any call.
    func renew(productId: String) throws
    /// The customer turns auto-renew off for a subscription: the renewal info changes, no transaction.
    func turnOffAutoRenew(productId: String) throws
    /// The account may no longer pay (Screen Time, parental controls).
    func forbidPayments() throws
    /// How many transactions the store holds unfinished for this device.
    func unfinishedCount() throws -> Int
    /// Whether the store tells the app that an Ask to Buy was declined (the sandbox does; StoreKit 2 makes no
    /// transaction and sends nothing, so the pending purchase stays pending in the app).
    var reportsDeclines: Bool { get }
}

/// The tutorials' market: Examples/Market/Market.storekit and tally.json.
struct Market: Sendable {
    let catalog: Catalog
    let configuration: AppConfiguration

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Market")

    static func load() throws -> Market {
        let storeKit = folder.appendingPathComponent("Market.storekit")
        let configuration = folder.appendingPathComponent("tally.json")
        return Market(catalog: try Catalog(storeKitData: Data(contentsOf: storeKit), fileName: storeKit.path),
                      configuration: try AppConfiguration(jsonData: Data(contentsOf: configuration),
                                                          fileName: configuration.path))
    }

    func product(_ id: String) throws -> TallyCore.CatalogProduct {
        guard let product = catalog.products.first(where: { $0.id == id }) else {
            throw StoreError(.productUnavailable, "\(id) is not in Market.storekit")
        }
        return product
    }
}

/// A backend whose finish fails, as if the app died after the engine's durable write and before `finish()`.
struct CrashBeforeFinish: StoreBackend {
    let base: any StoreBackend

    func products(for ids: [String]) async throws -> BackendProducts { try await base.products(for: ids) }
    func purchase(_ request: PurchaseRequest) async throws -> BackendPurchaseResult { try await base.purchase(request) }
    func restore() async throws -> [TransactionUpdate] { try await base.restore() }
    func unfinished() async throws -> [TransactionUpdate] { try await base.unfinished() }
    func finish(transactionId: String) async throws {
        throw StoreError(.backend, "the app was killed before finishing \(transactionId)")
    }
    func transactionUpdates() -> AsyncStream<TransactionUpdate> { base.transactionUpdates() }
    func subscriptionStatuses() async throws -> [SignedRenewalInfo] { try await base.subscriptionStatuses() }
    var canMakePayments: Bool { get async { await base.canMakePayments } }
    var storefront: String? { get async { await base.storefront } }
    var clock: StoreClock { base.clock }
    var transactionVerifier: any TransactionVerifier { base.transactionVerifier }
    func renewalInfoUpdates() -> AsyncStream<SignedRenewalInfo> { base.renewalInfoUpdates() }
    func allTransactions() async throws -> [TransactionUpdate] { try await base.allTransactions() }
    func declinedPurchases() async throws -> [String] { try await base.declinedPurchases() }
    func purchaseDeclines() -> AsyncStream<String> { base.purchaseDeclines() }
}

/// Waits (polling) until `condition` holds, up to `seconds`; false if it never did.
func eventually(within seconds: Double = 10, _ condition: @Sendable () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
