import TallyCore
import TallyStorage
import TallySQLite

extension DecodedPayloads {
    /// The SQLite store's payload of transaction `id`, decoded by ``StoredValueCoding`` at most once while remembered.
    mutating func transaction(json: String, id: String) throws(SQLiteError) -> StoreTransaction {
        try transaction(json: json, id: id) { (text) throws(SQLiteError) in try StoredValueCoding.transaction(json: text, id: id) }
    }
}
