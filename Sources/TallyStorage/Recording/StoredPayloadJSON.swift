import Foundation
import TallyCore

/// How every store writes Apple's payloads into its rows, and what they read back as: a transaction as
/// TallyCore's ``TransactionPayloadJSON`` (or its `Codable` form when it carries raw JSON fields), renewal info as
/// its `Codable` JSON; dates at whole milliseconds either way. One form for SQLite and PostgreSQL.
public enum StoredPayloadJSON {
    /// A transaction as Apple's payload JSON: written directly (``TransactionPayloadJSON``), or with TallyCore's
    /// `Codable` for one that carries fields kept as raw JSON.
    public static func json(_ transaction: StoreTransaction) throws(CustomerStoreError) -> String {
        if let bytes = TransactionPayloadJSON.bytes(transaction) { return String(decoding: bytes, as: UTF8.self) }
        do {
            let data = try JSONEncoder().encode(transaction)
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw CustomerStoreError(.failed, "transaction '\(transaction.transactionId)' cannot be written as JSON: "
                + "\(error)", underlying: error)
        }
    }

    /// The transaction as it reads back after storing (dates at whole milliseconds), to compare with a stored copy.
    /// Without raw JSON fields that is the transaction with its dates at whole milliseconds
    /// (``TransactionPayloadJSON/normalized(_:)``); otherwise the JSON round trip itself.
    public static func normalized(_ transaction: StoreTransaction) throws(CustomerStoreError) -> StoreTransaction {
        if let normalized = TransactionPayloadJSON.normalized(transaction) { return normalized }
        let text = try json(transaction)
        do {
            return try JSONDecoder().decode(StoreTransaction.self, from: Data(text.utf8))
        } catch {
            throw CustomerStoreError(.failed, "transaction '\(transaction.transactionId)' does not read back from "
                + "its JSON: \(error)", underlying: error)
        }
    }

    /// Renewal info as Apple's payload JSON.
    public static func json(_ info: RenewalInfo) throws(CustomerStoreError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(info), as: UTF8.self)
        } catch {
            throw CustomerStoreError(.failed, "the renewal info of chain '\(info.originalTransactionId)' cannot be "
                + "written as JSON: \(error)", underlying: error)
        }
    }

    /// The renewal info as it reads back after storing (dates at whole milliseconds), to compare with a stored copy.
    public static func normalized(_ info: RenewalInfo) throws(CustomerStoreError) -> RenewalInfo {
        let text = try json(info)
        do {
            return try JSONDecoder().decode(RenewalInfo.self, from: Data(text.utf8))
        } catch {
            throw CustomerStoreError(.failed, "the renewal info of chain '\(info.originalTransactionId)' does not "
                + "read back from its JSON: \(error)", underlying: error)
        }
    }
}
