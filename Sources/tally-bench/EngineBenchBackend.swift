import Foundation
import Tally
import TallyCore

/// A backend that answers every purchase at once with a new consumable transaction, so `tally-bench engine`
/// measures the engine's own delivery (its durable journal write per transaction), not a store's.
actor EngineBenchBackend: StoreBackend {
    let catalog: Catalog
    private var nextTransactionNumber = 3_000_000_000_000_000

    init(catalog: Catalog) {
        self.catalog = catalog
    }

    func products(for ids: [String]) async throws -> BackendProducts {
        let known = Dictionary(catalog.products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return BackendProducts(products: ids.compactMap { known[$0] },
                               invalidProductIds: ids.filter { known[$0] == nil })
    }

    func purchase(_ request: PurchaseRequest) async throws -> BackendPurchaseResult {
        nextTransactionNumber += 1
        let transaction = Transaction(transactionId: String(nextTransactionNumber), productId: request.productId,
                                      purchaseDate: Date(), quantity: request.quantity, type: .consumable)
        return .purchased(TransactionUpdate(transaction: transaction))
    }

    func restore() async throws -> [TransactionUpdate] { [] }

    func unfinished() async throws -> [TransactionUpdate] { [] }

    func finish(transactionId: String) async throws {}

    /// No updates ever arrive; the stream ends when the store stops listening.
    nonisolated func transactionUpdates() -> AsyncStream<TransactionUpdate> {
        AsyncStream { _ in }
    }
}
