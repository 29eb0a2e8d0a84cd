import CSQLite
import Foundation
import TallyCore
import TallySQLite

/// How the store writes values into columns and reads them back: transactions as TallyCore's JSON,
/// amounts as decimal text (never binary floating point), dates as milliseconds since 1970.
enum StoredValueCoding {
    /// A transaction as Apple's payload JSON: written directly (``TransactionPayloadJSON``), or with TallyCore's
    /// `Codable` for one that carries fields kept as raw JSON.
    static func json(_ transaction: StoreTransaction) throws(CustomerStoreError) -> String {
        if let bytes = TransactionPayloadJSON.bytes(transaction) { return String(decoding: bytes, as: UTF8.self) }
        do {
            let data = try JSONEncoder().encode(transaction)
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw CustomerStoreError(.failed, "transaction '\(transaction.transactionId)' cannot be written as JSON: "
                + "\(error)", underlying: error)
        }
    }

    /// The transaction in a stored JSON payload.
    static func transaction(json: String, id: String) throws(SQLiteError) -> StoreTransaction {
        do {
            return try StoreTransaction(payloadJSON: Array(json.utf8))
        } catch {
            throw SQLiteError(code: SQLITE_CORRUPT, "the stored payload of transaction '\(id)' does not decode: \(error)")
        }
    }

    /// The transaction as it reads back after storing (dates at whole milliseconds), to compare with a stored copy.
    /// Without raw JSON fields that is the transaction with its dates at whole milliseconds
    /// (``TransactionPayloadJSON/normalized(_:)``); otherwise the JSON round trip itself.
    static func normalized(_ transaction: StoreTransaction) throws(CustomerStoreError) -> StoreTransaction {
        if let normalized = TransactionPayloadJSON.normalized(transaction) { return normalized }
        let text = try json(transaction)
        do {
            return try JSONDecoder().decode(StoreTransaction.self, from: Data(text.utf8))
        } catch {
            throw CustomerStoreError(.failed, "transaction '\(transaction.transactionId)' does not read back from "
                + "its JSON: \(error)", underlying: error)
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
