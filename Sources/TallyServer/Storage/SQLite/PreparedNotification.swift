import TallyCore

/// A notification made ready before the write transaction starts: the JSON of its transaction and renewal
/// info, and the values they read back as.
struct PreparedNotification: Sendable {
    /// The notification as verified.
    var stored: StoredNotification
    /// Its transaction, ready to store; nil for none or when its facts are not applied.
    var transaction: PreparedTransaction?
    /// Its renewal info, ready to store; nil for none or when its facts are not applied.
    var renewalInfo: PreparedRenewalInfo?

    /// Encodes `stored`.
    init(_ stored: StoredNotification) throws(CustomerStoreError) {
        self.stored = stored
        if stored.appliesFacts {
            transaction = try stored.transaction.map { (item) throws(CustomerStoreError) in try PreparedTransaction(item) }
            renewalInfo = try stored.renewalInfo.map { (info) throws(CustomerStoreError) in
                try PreparedRenewalInfo(info, signed: stored.signedRenewalInfo)
            }
        }
    }

    /// Whether it carries facts to apply to a customer.
    var hasFacts: Bool { transaction != nil || renewalInfo != nil }
}
