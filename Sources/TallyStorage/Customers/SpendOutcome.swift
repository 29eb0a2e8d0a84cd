import Foundation

/// What ``CustomerStore/spend(id:currency:for:admit:)`` did; each case carries the state record
/// (``CustomerStore/customerState(_:)``) read inside the spend's transaction.
public enum SpendOutcome: Sendable, Hashable {
    /// The spend was stored; the record after it.
    case recorded(CustomerRecord)
    /// A spend with this id was already stored; nothing changed. The current record.
    case duplicate(CustomerRecord)
}

extension SpendOutcome {
    /// The answer to the spend: its record's state encoded at `date` by `encoding`.
    public func answer(_ encoding: StateEncoding, at date: Date) -> SpendAnswer {
        let (isDuplicate, record) = switch self {
        case .recorded(let record): (false, record)
        case .duplicate(let record): (true, record)
        }
        return SpendAnswer(isDuplicate: isDuplicate, state: encoding.encode(record, date), factsVersion: record.factsVersion)
    }
}
