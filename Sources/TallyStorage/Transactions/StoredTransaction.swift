import TallyCore

/// A verified transaction as the server keeps it, with the signed form it arrived in.
public struct StoredTransaction: Sendable, Hashable {
    /// How a transaction reached the server.
    public enum Source: String, Sendable, Hashable, Codable {
        /// A StoreKit 2 `jwsRepresentation` (`signedTransaction`).
        case signedTransaction
        /// An in-app record of a legacy app receipt.
        case receipt
    }

    /// The decoded, verified transaction.
    public var transaction: StoreTransaction
    /// Where it came from.
    public var source: Source
    /// The JWS as received, for a signed transaction; nil for receipt records.
    public var signedTransaction: String?

    /// Creates a stored transaction.
    public init(transaction: StoreTransaction, source: Source, signedTransaction: String? = nil) {
        self.transaction = transaction
        self.source = source
        self.signedTransaction = signedTransaction
    }
}
