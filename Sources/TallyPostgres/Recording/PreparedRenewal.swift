import Foundation
import TallyCore
import TallyServer

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
