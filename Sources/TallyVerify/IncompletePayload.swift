import TallyCore

/// A payload that passed every check but lacks fields Tally's model needs and Apple's all-optional model does
/// not (Apple's `mock_signed_data/transactionInfo` has only `bundleId`, `environment` and `signedDate`).
/// Apple's library accepts such payloads; so do ``SignedDataVerifier/verify(_:kind:)`` and
/// ``SignedDataVerifier/verifyDetectingKind(_:)``, which return this instead of a typed model.
public struct IncompletePayload: Sendable, Hashable {
    /// What the payload was verified as.
    public var kind: SignedPayloadKind
    /// The payload's fields as signed, each field in ``missing`` added as `null`.
    public var fields: [String: JSONValue]
    /// The fields Tally's model needs that the payload lacks, sorted (`productId`, `purchaseDate`, ...).
    public var missing: [String]

    /// Creates an incomplete payload.
    public init(kind: SignedPayloadKind, fields: [String: JSONValue], missing: [String]) {
        self.kind = kind
        self.fields = fields
        self.missing = missing
    }
}
