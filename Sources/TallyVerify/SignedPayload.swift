import TallyCore

/// A verified, decoded payload of any kind.
public enum SignedPayload: Sendable, Hashable {
    /// A transaction.
    case transaction(StoreTransaction)
    /// Renewal info.
    case renewalInfo(RenewalInfo)
    /// A server notification (nested signed data verified and decoded when configured).
    case notification(ServerNotification)
    /// An app transaction.
    case appTransaction(StoreAppTransaction)
    /// A transaction or renewal info that passed every check but lacks fields Tally's model requires.
    case incomplete(IncompletePayload)

    /// The payload's kind.
    public var kind: SignedPayloadKind {
        switch self {
        case .transaction: .transaction
        case .renewalInfo: .renewalInfo
        case .notification: .notification
        case .appTransaction: .appTransaction
        case .incomplete(let payload): payload.kind
        }
    }
}
