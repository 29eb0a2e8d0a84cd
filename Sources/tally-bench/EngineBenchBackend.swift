import Foundation
import Tally
import TallyCore
import TallySandbox
import TallyVerify

/// A backend that answers every purchase at once with a new consumable transaction, so `tally-bench engine`
/// measures the engine's own delivery (its signature check and durable journal write per transaction), not a
/// store's. Its transactions are signed ES256 by a sandbox authority before the clock starts (``prepare(_:)``), so
/// the store's signing is not timed; the engine verifies each with TallyVerify, as an app does.
actor EngineBenchBackend: StoreBackend {
    let catalog: Catalog
    private let signer: SandboxSigner
    private let verifier: BenchVerifier
    private var prepared: [TransactionUpdate] = []
    private var nextPrepared = 0
    private var nextTransactionNumber = 3_000_000_000_000_000

    /// The bundle id on every transaction (nil: none); a server linked to the engine checks it.
    private let bundleId: String?
    /// The signing root, PEM: what a `tally serve` must trust to take these transactions.
    let rootPEM: String

    init(catalog: Catalog, bundleId: String? = nil) throws {
        self.catalog = catalog
        self.bundleId = bundleId
        let authority = try SandboxCertificateAuthority.generate(now: Date())
        rootPEM = authority.rootPEM
        signer = try authority.signer()
        guard let root = Certificate(der: authority.rootDER) else { throw BenchError("the bench root does not parse") }
        verifier = BenchVerifier(try SignedDataVerifier(rootCertificates: [root], bundleId: nil, environment: .sandbox))
    }

    nonisolated var transactionVerifier: any TransactionVerifier { verifier }

    /// Signs the next `count` purchases of `productId` ahead of time.
    func prepare(_ count: Int, of productId: String, quantity: Int = 1) throws {
        for _ in 0..<count {
            nextTransactionNumber += 1
            let now = Date()
            let transaction = StoreTransaction(transactionId: String(nextTransactionNumber), bundleId: bundleId,
                                          productId: productId, purchaseDate: now, quantity: quantity,
                                          type: .consumable, signedDate: bundleId == nil ? nil : now,
                                          environment: .sandbox)
            prepared.append(TransactionUpdate(transaction: transaction,
                                              jwsRepresentation: try signer.signTransaction(transaction)))
        }
    }

    func products(for ids: [String]) async throws -> BackendProducts {
        let known = Dictionary(catalog.products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return BackendProducts(products: ids.compactMap { known[$0] },
                               invalidProductIds: ids.filter { known[$0] == nil })
    }

    func purchase(_ request: PurchaseRequest) async throws -> BackendPurchaseResult {
        if nextPrepared == prepared.count { try prepare(1, of: request.productId, quantity: request.quantity) }
        nextPrepared += 1
        return .purchased(prepared[nextPrepared - 1])
    }

    func restore() async throws -> [TransactionUpdate] { [] }

    func unfinished() async throws -> [TransactionUpdate] { [] }

    func finish(transactionId: String) async throws {}

    /// No updates ever arrive; the stream ends when the store stops listening.
    nonisolated func transactionUpdates() -> AsyncStream<TransactionUpdate> {
        AsyncStream { _ in }
    }
}

/// TallyVerify's verifier as the engine's, for transactions and renewal infos.
struct BenchVerifier: TransactionVerifier {
    let verifier: SignedDataVerifier

    init(_ verifier: SignedDataVerifier) { self.verifier = verifier }

    func verifiedTransaction(_ jwsRepresentation: String) throws(StoreError) -> StoreTransaction {
        switch verifier.verifyTransaction(jwsRepresentation) {
        case .success(let transaction): transaction
        case .failure(let failure): throw StoreError(.verificationFailed, failure.description)
        }
    }

    func verifiedRenewalInfo(_ jwsRepresentation: String) throws(StoreError) -> RenewalInfo {
        switch verifier.verifyRenewalInfo(jwsRepresentation) {
        case .success(let info): info
        case .failure(let failure): throw StoreError(.verificationFailed, failure.description)
        }
    }
}
