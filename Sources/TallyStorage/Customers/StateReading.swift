/// What a store's write reads back for the customer who wrote: nothing, or the state record as the write left it
/// (only the versions and the nets when the customer's facts version is still `knownFactsVersion`).
public enum StateReading: Sendable, Hashable {
    /// Nothing.
    case none
    /// The state record; `knownFactsVersion` is the ``CustomerRecord/factsVersion`` of a state the caller holds.
    case state(knownFactsVersion: Int64?)
}
