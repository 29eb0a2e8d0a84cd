import Foundation
import TallyCore
import TallySandbox

/// The Market example's sandbox store (catalog and `tally.json` from `Examples/Market`), signing its
/// transactions with a given authority, as the App Store would hand them to the app.
struct MarketStore {
    /// The simulated store.
    private(set) var sandbox: Sandbox
    private let signer: SandboxSigner

    /// A store whose clock starts at `start` (by default a minute ago, so its transactions are in the
    /// server's past).
    init(authority: SandboxCertificateAuthority, environment: StoreEnvironment = .sandbox,
         start: Date = Date().addingTimeInterval(-60)) throws {
        let storeKit = TestPaths.market.appendingPathComponent("Market.storekit")
        let catalog = try Catalog(storeKitData: try Data(contentsOf: storeKit), fileName: "Market.storekit")
        let configuration = try AppConfiguration(
            jsonData: try Data(contentsOf: TestPaths.market.appendingPathComponent("tally.json")),
            fileName: "tally.json")
        sandbox = Sandbox(catalog: catalog, configuration: configuration, start: start)
        sandbox.environment = environment
        signer = try authority.signer()
    }

    /// Buys `productId` for the sandbox account `account` (carrying `appAccountToken`, as a client chooses it);
    /// the transaction, or an error naming the outcome.
    mutating func buy(_ productId: String, account: String = "default",
                      appAccountToken: String? = nil) throws -> StoreTransaction {
        let result = sandbox.purchase(productId, account: account, appAccountToken: appAccountToken)
        guard let transaction = result.transaction else {
            throw HarnessError("the sandbox did not complete the purchase of \(productId): \(result)")
        }
        return transaction
    }

    /// Refunds a transaction; the updated transaction (with `revocationDate`).
    mutating func refund(_ transactionId: String) throws -> StoreTransaction {
        try sandbox.refund(transactionId: transactionId)
    }

    /// The transaction's `signedTransactionInfo`.
    func signed(_ transaction: StoreTransaction) throws -> String {
        try signer.signTransaction(transaction)
    }

    /// Moves the sandbox's clock forward, running the renewals and expiries on the way.
    mutating func advance(by duration: SandboxDuration) {
        sandbox.advance(by: duration)
    }

    /// Turns a sandbox switch (a billing issue, …) on or off, for one account or all.
    mutating func set(_ toggle: SandboxToggle, enabled: Bool, account: String? = nil) {
        sandbox.set(toggle, enabled: enabled, account: account)
    }

    /// Any payload (a notification, renewal info) signed as the App Store signs it.
    func sign<T: Encodable>(_ payload: T) throws -> String {
        try signer.sign(payload)
    }

    /// Buys and signs in one step.
    mutating func buySigned(_ productId: String, account: String = "default",
                            appAccountToken: String? = nil) throws -> (StoreTransaction, String) {
        let transaction = try buy(productId, account: account, appAccountToken: appAccountToken)
        return (transaction, try signed(transaction))
    }
}
