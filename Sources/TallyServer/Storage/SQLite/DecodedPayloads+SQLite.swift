import TallyCore
import TallySQLite

extension DecodedPayloads {
    /// The SQLite store's payload of transaction `id`, decoded by ``StoredValueCoding`` at most once while remembered.
    mutating func transaction(json: String, id: String) throws(SQLiteError) -> Transaction {
        try transaction(json: json, id: id) { (text) throws(SQLiteError) in try StoredValueCoding.transaction(json: text, id: id) }
    }

    /// ``transaction(json:id:)`` for a payload lent as its bytes (compared in place, copied only to decode).
    mutating func transaction(payload: UnsafeBufferPointer<UInt8>, id: String) throws(SQLiteError) -> Transaction {
        try transaction(payload: payload, id: id) { (text) throws(SQLiteError) in
            try StoredValueCoding.transaction(json: text, id: id)
        }
    }
}
