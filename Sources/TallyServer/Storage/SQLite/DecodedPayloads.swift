import TallyCore
import TallySQLite

/// Transactions already decoded from stored `payload` text, keyed by that text's bytes (``TallyCore/UTF8Key``:
/// two payloads that differ only in Unicode normalization are different rows and decode to byte-different
/// ids), so reading a customer's state decodes only payloads it has not seen: a subscriber's renewals are
/// decoded once, not on every post. Decoding is deterministic, so a remembered value is exactly what decoding
/// again would give. Holds at most ``capacity`` payloads and starts over when full.
///
/// One per ``SQLiteConnection``, used only under that connection's lock (not `Sendable`).
struct DecodedPayloads {
    /// The most payloads remembered (each a few KB with its transaction).
    static let capacity = 2_048

    private var byPayload: [UTF8Key: Transaction] = [:]

    /// How many payloads are remembered.
    var count: Int { byPayload.count }

    /// The transaction in `json` (the stored payload of transaction `id`), decoded at most once while remembered.
    mutating func transaction(json: String, id: String) throws(SQLiteError) -> Transaction {
        let key = UTF8Key(json)
        if let known = byPayload[key] { return known }
        let decoded = try StoredValueCoding.transaction(json: json, id: id)
        if byPayload.count >= Self.capacity { byPayload.removeAll(keepingCapacity: true) }
        byPayload[key] = decoded
        return decoded
    }
}
