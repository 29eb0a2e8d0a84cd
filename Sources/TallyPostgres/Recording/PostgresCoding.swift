import Foundation
import TallyCore
import TallyServer

/// How the PostgreSQL store writes values and reads them back: transactions and renewal info as TallyCore's
/// JSON of Apple's payload (millisecond dates), as the SQLite store keeps them.
enum PostgresCoding {
    static func json<T: Encodable>(_ value: T, what: @autoclosure () -> String) throws(CustomerStoreError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        } catch {
            throw CustomerStoreError(.failed, "\(what()) cannot be written as JSON: \(error)", underlying: error)
        }
    }

    /// The value as it reads back after storing (dates at whole milliseconds), to compare with a stored copy.
    static func normalized<T: Codable>(_ value: T, json: String, what: @autoclosure () -> String) throws(CustomerStoreError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(json.utf8))
        } catch {
            throw CustomerStoreError(.failed, "\(what()) does not read back from its JSON: \(error)", underlying: error)
        }
    }

    /// The transaction in a stored payload.
    static func transaction(json: String, id: String) throws(PostgresError) -> Transaction {
        do {
            return try JSONDecoder().decode(Transaction.self, from: Data(json.utf8))
        } catch {
            throw .corrupt("the stored payload of transaction '\(id.prefix(64))' does not decode: \(error)")
        }
    }

    /// The renewal info in a stored payload.
    static func renewalInfo(json: String, chain: String) throws(PostgresError) -> RenewalInfo {
        do {
            return try JSONDecoder().decode(RenewalInfo.self, from: Data(json.utf8))
        } catch {
            throw .corrupt("the stored renewal info of chain '\(chain.prefix(64))' does not decode: \(error)")
        }
    }
}

/// A transaction made ready before the write transaction: its JSON and the value that JSON reads back as.
struct PreparedCopy: Sendable {
    var stored: StoredTransaction
    var json: String
    var normalized: Transaction

    init(_ stored: StoredTransaction) throws(CustomerStoreError) {
        self.stored = stored
        let id = stored.transaction.transactionId
        json = try PostgresCoding.json(stored.transaction, what: "transaction '\(id.prefix(64))'")
        normalized = try PostgresCoding.normalized(stored.transaction, json: json, what: "transaction '\(id.prefix(64))'")
    }
}

/// Renewal info made ready before the write transaction.
struct PreparedRenewal: Sendable {
    var json: String
    var normalized: RenewalInfo
    var signed: String?

    init(_ info: RenewalInfo, signed: String?) throws(CustomerStoreError) {
        let what = "the renewal info of chain '\(info.originalTransactionId.prefix(64))'"
        json = try PostgresCoding.json(info, what: what)
        normalized = try PostgresCoding.normalized(info, json: json, what: what)
        self.signed = signed
    }

    init(json: String, signed: String?, chain: String) throws(PostgresError) {
        self.json = json
        normalized = try PostgresCoding.renewalInfo(json: json, chain: chain)
        self.signed = signed
    }
}
