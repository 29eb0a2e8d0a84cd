import CSQLite
import Foundation
import TallyCore
import TallyStorage
import TallySQLite

/// How the store writes values into columns and reads them back: transactions as TallyCore's JSON,
/// amounts as decimal text (never binary floating point), dates as milliseconds since 1970.
enum StoredValueCoding {
    /// The transaction in a stored JSON payload.
    static func transaction(json: String, id: String) throws(SQLiteError) -> StoreTransaction {
        do {
            return try StoreTransaction(payloadJSON: Array(json.utf8))
        } catch {
            throw SQLiteError(code: SQLITE_CORRUPT, "the stored payload of transaction '\(id)' does not decode: \(error)")
        }
    }

    /// An exact decimal amount as text (`12.5`), independent of locale.
    static func text(_ amount: Decimal) -> String {
        amount.description
    }

    /// The amount in stored decimal text.
    static func amount(_ text: String, spendId: String) throws(SQLiteError) -> Decimal {
        guard let amount = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !amount.isNaN else {
            throw SQLiteError(code: SQLITE_CORRUPT, "spend '\(spendId)' has the stored amount '\(text)', not a decimal")
        }
        return amount
    }

    /// A date as whole milliseconds since 1970.
    static func milliseconds(_ date: Date) -> Int64 {
        date.millisecondsSince1970
    }

    /// A source read from its column.
    static func source(_ text: String?, id: String) throws(SQLiteError) -> StoredTransaction.Source {
        guard let text, let source = StoredTransaction.Source(rawValue: text) else {
            throw SQLiteError(code: SQLITE_CORRUPT, "transaction '\(id)' has the unknown stored source '\(text ?? "NULL")'")
        }
        return source
    }
}
