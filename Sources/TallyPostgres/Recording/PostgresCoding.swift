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
