import Foundation
import TallyCore
import TallyServer

/// A notification made ready before the write transaction.
struct PreparedNotice: Sendable {
    var stored: StoredNotification
    var transaction: PreparedTransaction?
    var renewalInfo: PreparedRenewal?

    init(_ stored: StoredNotification) throws(CustomerStoreError) {
        self.stored = stored
        if stored.appliesFacts {
            transaction = try stored.transaction.map { (item) throws(CustomerStoreError) in try PreparedTransaction(item) }
            renewalInfo = try stored.renewalInfo.map { (info) throws(CustomerStoreError) in
                try PreparedRenewal(info, signed: stored.signedRenewalInfo)
            }
        }
    }

    var hasFacts: Bool { transaction != nil || renewalInfo != nil }

    /// The chain it is about (of its transaction, else of its renewal info).
    var chain: String? { transaction?.normalized.originalTransactionId ?? renewalInfo?.normalized.originalTransactionId }
}
