/// A store operation that failed, with a reason a person can act on.
public struct CustomerStoreError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Reason: String, Sendable, Hashable {
        /// The database could not be opened, created or migrated (path, permissions, a newer schema).
        case unavailable
        /// The database is busy or locked beyond the wait allowed; retrying may succeed.
        case busy
        /// A read or write failed (disk full, I/O error, corruption).
        case failed
        /// The `admit` closure of a spend refused it; ``underlying`` holds its error.
        case refused
        /// A value (an id) is larger than this store can keep: the same request can never succeed; nothing was stored.
        case tooLarge
    }

    /// The kind of failure.
    public var reason: Reason
    /// What happened and what to do.
    public var message: String
    /// The error `admit` threw, for ``Reason/refused``.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(_ reason: Reason, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.reason = reason
        self.message = message
        self.underlying = underlying
    }

    /// The message.
    public var description: String { message }
}
