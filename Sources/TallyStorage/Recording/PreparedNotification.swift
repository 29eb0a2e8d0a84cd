import TallyCore

/// A notification made ready before the write transaction starts: the JSON of its transaction and renewal
/// info, and the values they read back as.
public struct PreparedNotification: Sendable {
    /// The notification as verified.
    public var stored: StoredNotification
    /// Its transaction, ready to store; nil for none or when its facts are not applied.
    public var transaction: PreparedTransaction?
    /// Its renewal info, ready to store; nil for none or when its facts are not applied.
    public var renewalInfo: PreparedRenewalInfo?

    /// Encodes `stored`.
    public init(_ stored: StoredNotification) throws(CustomerStoreError) {
        self.stored = stored
        if stored.appliesFacts {
            transaction = try stored.transaction.map { (item) throws(CustomerStoreError) in try PreparedTransaction(item) }
            renewalInfo = try stored.renewalInfo.map { (info) throws(CustomerStoreError) in
                try PreparedRenewalInfo(info, signed: stored.signedRenewalInfo)
            }
        }
    }

    /// Whether it carries facts to apply to a customer.
    public var hasFacts: Bool { transaction != nil || renewalInfo != nil }

    /// The chain it is about: its transaction's, else its renewal info's.
    public var chain: String? {
        transaction?.normalized.originalTransactionId ?? renewalInfo?.normalized.originalTransactionId
    }
}

/// Renewal info made ready before the write transaction: its JSON and the value it reads back as.
public struct PreparedRenewalInfo: Sendable {
    /// TallyCore's JSON of the renewal info.
    public var json: String
    /// The renewal info as it reads back from ``json``.
    public var normalized: RenewalInfo
    /// `signedRenewalInfo` as received.
    public var signed: String?

    /// Encodes `info`.
    public init(_ info: RenewalInfo, signed: String?) throws(CustomerStoreError) {
        json = try StoredPayloadJSON.json(info)
        normalized = try StoredPayloadJSON.normalized(info)
        self.signed = signed
    }

    /// A stored payload and the value the store decoded it to.
    public init(json: String, normalized: RenewalInfo, signed: String?) {
        self.json = json
        self.normalized = normalized
        self.signed = signed
    }
}
