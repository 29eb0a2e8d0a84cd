// An app file as an app developer writes it: `import Tally` alone (no TallyCore), beside `import StoreKit` (Apple's
// on Apple platforms; on Linux the stand-in module named `StoreKit`, which declares Apple's names). StoreKit's
// `Transaction` and `Product` are written unqualified: none of Tally's names is one of StoreKit's top-level names
// (Tally's are `StoreTransaction`, `CatalogProduct`, …).
import Foundation
#if os(Linux)
@_spi(Scripting) import StoreKit
#else
import StoreKit
#endif
import Tally
import Testing

/// The smallest backend an app might write for previews: sells the catalog, buys at once, restores nothing.
actor PreviewBackend: StoreBackend {
    let catalog: Catalog
    private var sold: [StoreTransaction] = []

    init(catalog: Catalog) { self.catalog = catalog }

    func products(for ids: [String]) async throws -> BackendProducts {
        BackendProducts(products: ids.compactMap { catalog.product($0) },
                        invalidProductIds: ids.filter { catalog.product($0) == nil })
    }

    func purchase(_ request: PurchaseRequest) async throws -> BackendPurchaseResult {
        guard let product: CatalogProduct = catalog.product(request.productId) else {
            throw StoreError(.productUnavailable, "\(request.productId) is not sold")
        }
        let transaction = StoreTransaction(
            transactionId: String(sold.count + 1), bundleId: "com.example.app", productId: product.id,
            purchaseDate: Date(), quantity: request.quantity, type: product.kind.transactionType)
        sold.append(transaction)
        return .purchased(TransactionUpdate(transaction: transaction, jwsRepresentation: signed.sign(transaction)))
    }

    /// A preview store's signatures: what it sold, looked up (an app's real backend verifies Apple's JWS).
    nonisolated let signed = PreviewSignatures()
    nonisolated var transactionVerifier: any TransactionVerifier { signed }

    func restore() async throws -> [TransactionUpdate] { [] }
    func unfinished() async throws -> [TransactionUpdate] { [] }
    func finish(transactionId: String) async throws {}
    nonisolated func transactionUpdates() -> AsyncStream<TransactionUpdate> { AsyncStream { _ in } }
}

/// The preview store's signed forms: a token per sold transaction, verified by looking it up.
// @unchecked Sendable: `issued` is read and written only inside `lock.withLock` (NSLock: iOS 15's floor has no Mutex).
final class PreviewSignatures: TransactionVerifier, @unchecked Sendable {
    private let lock = NSLock()
    private var issued: [String: StoreTransaction] = [:]

    func sign(_ transaction: StoreTransaction) -> String {
        lock.withLock {
            let token = "preview.\(transaction.transactionId).\(issued.count)"
            issued[token] = transaction
            return token
        }
    }

    func verifiedTransaction(_ jwsRepresentation: String) throws(StoreError) -> StoreTransaction {
        guard let transaction = lock.withLock({ issued[jwsRepresentation] }) else {
            throw StoreError(.verificationFailed, "the preview store did not sign this")
        }
        return transaction
    }

    /// The preview store sells no subscriptions, so it signed no renewal info: none verifies.
    func verifiedRenewalInfo(_ jwsRepresentation: String) throws(StoreError) -> RenewalInfo {
        throw StoreError(.verificationFailed, "the preview store signs no renewal info")
    }
}

/// StoreKit's values, converted by the app to show beside Tally's.
func describe(_ transaction: Transaction, _ product: Product) -> String {
    "\(transaction.productID) at \(product.displayPrice)"
}

@Suite("An app importing Tally and StoreKit")
struct AppWithStoreKitTests {
    @Test("StoreKit's Transaction and Product unqualified beside Tally's StoreTransaction and CatalogProduct")
    func bothModulesTogether() async throws {
        let premium = CatalogProduct(id: "app.premium", kind: .nonConsumable, price: 4.99, currency: "USD")
        let catalog = Catalog(products: [premium])
        let configuration = AppConfiguration(bundleId: "com.example.app", entitlements: ["premium": [premium.id]])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-app-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        let store = try await Store(backend: PreviewBackend(catalog: catalog), catalog: catalog,
                                    configuration: configuration, directory: directory, locale: "en_US")
        let outcome = try await store.purchase(premium.id)
        guard case .purchased(let bought) = outcome else {
            Issue.record("the purchase answered \(outcome)")
            return
        }
        let sold: StoreTransaction = bought
        #expect(sold.productId == "app.premium")
        #expect(await store.isEntitled("premium"))
        let state: CustomerState = await store.state
        #expect(state.nonConsumables == ["app.premium"])
        #if os(Linux)
        // Apple's types have no public initializer; the stand-in's scripting ones build the values an app receives.
        let payload = Data(#"{"transactionId":"1","productId":"app.premium","type":"Non-Consumable","purchaseDate":0}"#.utf8)
            .base64EncodedString().replacingOccurrences(of: "=", with: "")
        let storeKitTransaction = try Transaction(jwsRepresentation: "e30.\(payload).c2ln")
        let storeKitProduct = Product(id: "app.premium", type: .nonConsumable, displayName: "Premium",
                                               price: 4.99, currencyCode: "USD", displayPrice: "$4.99")
        #expect(describe(storeKitTransaction, storeKitProduct) == "app.premium at $4.99")
        #endif
        await store.close()
    }
}
