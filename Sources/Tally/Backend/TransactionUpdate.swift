import Foundation
import TallyCore


/// A transaction as a backend delivers it, with what the engine needs beside it.
public struct TransactionUpdate: Sendable, Hashable {
    /// The transaction, in its latest form (a refund's updated record replaces the purchase).
    public var transaction: StoreTransaction
    /// The transaction's signed form as the store gave it (a compact JWS: StoreKit's `jwsRepresentation`, the
    /// App Store's `signedTransactionInfo`). The engine keeps the payload it verifies, not ``transaction``.
    public var jwsRepresentation: String
    /// The subscription chain's renewal information with its signed form, when the backend has it. It counts
    /// only when its signed form verifies (``TransactionVerifier/verifiedRenewalInfo(_:)``).
    public var renewalInfo: SignedRenewalInfo?
    /// The backend's id of the pending purchase (Ask to Buy, interrupted) this transaction completes, if known.
    /// When nil, the engine matches a pending purchase by product id and app account token.
    public var purchaseId: String?

    /// Creates an update.
    public init(transaction: StoreTransaction, jwsRepresentation: String, renewalInfo: SignedRenewalInfo? = nil,
                purchaseId: String? = nil) {
        self.transaction = transaction
        self.jwsRepresentation = jwsRepresentation
        self.renewalInfo = renewalInfo
        self.purchaseId = purchaseId
    }
}
