/// What ``CustomerStore/spend(_:for:admit:)`` did.
public enum SpendOutcome: Sendable, Hashable {
    /// The spend was stored; the record after it.
    case recorded(CustomerRecord)
    /// A spend with this id was already stored; nothing changed. The current record.
    case duplicate(CustomerRecord)
}
