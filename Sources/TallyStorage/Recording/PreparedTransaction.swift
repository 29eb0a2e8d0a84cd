import TallyCore

/// A posted transaction made ready before the write transaction starts: its JSON, and the value that JSON
/// reads back as (dates at whole milliseconds), which is what a stored copy is compared with. Every store
/// keeps this JSON as the transaction's payload.
public struct PreparedTransaction: Sendable {
    /// The transaction as posted.
    public var stored: StoredTransaction
    /// TallyCore's JSON of the transaction.
    public var json: String
    /// The transaction as it reads back from ``json``.
    public var normalized: StoreTransaction

    /// Encodes `stored`.
    public init(_ stored: StoredTransaction) throws(CustomerStoreError) {
        self.stored = stored
        self.json = try StoredPayloadJSON.json(stored.transaction)
        self.normalized = try StoredPayloadJSON.normalized(stored.transaction)
    }
}
