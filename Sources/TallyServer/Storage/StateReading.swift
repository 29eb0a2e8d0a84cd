/// What a store's write reads back for the customer who wrote: nothing, or the state record as the write left it
/// (only the version and the nets when the write changed nothing else since `knownVersion`).
public enum StateReading: Sendable, Hashable {
    /// Nothing.
    case none
    /// The state record; `knownVersion` is the version of a state the caller holds.
    case state(knownVersion: Int64?)
}
