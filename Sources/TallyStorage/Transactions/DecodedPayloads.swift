import TallyCore

/// Transactions already decoded from stored `payload` text, one per transaction id (compared as bytes), each
/// with the exact payload it came from: a read of a customer's state decodes only payloads it has not seen, so a
/// subscriber's renewals are decoded once, not on every post. A lookup hashes the id (not the payload) and
/// compares the remembered payload with the stored one byte for byte, so a changed copy (a refund) is decoded
/// again, and payloads that differ only in Unicode normalization never share an entry. Decoding is
/// deterministic, so a remembered value is exactly what decoding again would give. Holds at most ``capacity``
/// transactions and starts over when full.
///
/// One per store connection, used only by the holder of that connection (not `Sendable`).
public struct DecodedPayloads {
    /// The most transactions remembered (each a few KB with its payload).
    public static let capacity = 2_048

    private var byId: [UTF8Key: (payload: String, transaction: StoreTransaction)] = [:]

    /// An empty memory.
    public init() {}

    /// How many transactions are remembered.
    public var count: Int { byId.count }

    /// The transaction in `json` (the stored payload of transaction `id`), decoded by `decode` at most once while
    /// remembered.
    public mutating func transaction<Failure: Error>(json: String, id: String,
                                                     decode: (String) throws(Failure) -> StoreTransaction)
        throws(Failure) -> StoreTransaction
    {
        let key = UTF8Key(id)
        if let known = byId[key], known.payload.hasSameBytes(as: json) { return known.transaction }
        let decoded = try decode(json)
        if byId.count >= Self.capacity, byId[key] == nil { byId.removeAll(keepingCapacity: true) }
        byId[key] = (json, decoded)
        return decoded
    }
}
