import CSQLite
import Foundation
import TallyCore
import TallyStorage
import TallySQLite

/// How the store writes renewal info into columns and reads it back: TallyCore's JSON of Apple's payload
/// (millisecond dates), as ``StoredValueCoding`` does for transactions.
enum NotificationValueCoding {
    /// The renewal info in a stored JSON payload.
    static func renewalInfo(json: String, chain: String) throws(SQLiteError) -> RenewalInfo {
        do {
            return try JSONDecoder().decode(RenewalInfo.self, from: Data(json.utf8))
        } catch {
            throw SQLiteError(code: SQLITE_CORRUPT, "the stored renewal info of chain '\(chain)' does not decode: \(error)")
        }
    }

    /// A result read from its column.
    static func result(_ text: String?, uuid: String) throws(SQLiteError) -> NotificationResult {
        guard let text, let result = NotificationResult(rawValue: text) else {
            throw SQLiteError(code: SQLITE_CORRUPT, "notification '\(uuid)' has the unknown stored result '\(text ?? "NULL")'")
        }
        return result
    }
}
