import CSQLite
import Foundation
import TallyCore
import TallySQLite

/// How the store writes renewal info into columns and reads it back: TallyCore's JSON of Apple's payload
/// (millisecond dates), as ``StoredValueCoding`` does for transactions.
enum NotificationValueCoding {
    /// Renewal info as Apple's payload JSON.
    static func json(_ info: RenewalInfo) throws(CustomerStoreError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(info), as: UTF8.self)
        } catch {
            throw CustomerStoreError(.failed, "the renewal info of chain '\(info.originalTransactionId)' cannot be "
                + "written as JSON: \(error)", underlying: error)
        }
    }

    /// The renewal info in a stored JSON payload.
    static func renewalInfo(json: String, chain: String) throws(SQLiteError) -> RenewalInfo {
        do {
            return try JSONDecoder().decode(RenewalInfo.self, from: Data(json.utf8))
        } catch {
            throw SQLiteError(code: SQLITE_CORRUPT, "the stored renewal info of chain '\(chain)' does not decode: \(error)")
        }
    }

    /// The renewal info as it reads back after storing (dates at whole milliseconds), to compare with a stored copy.
    static func normalized(_ info: RenewalInfo) throws(CustomerStoreError) -> RenewalInfo {
        let text = try json(info)
        do {
            return try JSONDecoder().decode(RenewalInfo.self, from: Data(text.utf8))
        } catch {
            throw CustomerStoreError(.failed, "the renewal info of chain '\(info.originalTransactionId)' does not "
                + "read back from its JSON: \(error)", underlying: error)
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
