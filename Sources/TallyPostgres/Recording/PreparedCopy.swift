import Foundation
import TallyCore
import TallyServer

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
