/// What ``CustomerStore/spend(id:currency:for:admit:)`` did; each case carries the state record
/// (``CustomerStore/customerState(_:)``) read inside the spend's transaction.
public enum SpendOutcome: Sendable, Hashable {
    /// The spend was stored; the record after it.
    case recorded(CustomerRecord)
    /// A spend with this id was already stored; nothing changed. The current record.
    case duplicate(CustomerRecord)
}
