/// Where ``Store/state`` comes from.
public enum StateSource: String, Sendable, Hashable {
    /// No server link: the ownership rules over the customer file.
    case local
    /// The server's customer state (`GET /v1/customers/{appUserId}`, or the answer to the last post): every
    /// device of the customer sees the same.
    case server
    /// A server link, but the server could not be reached (or has not been yet): the ownership rules over the
    /// customer file — what this device delivered or restored, including purchases not posted yet — shown
    /// until the next successful post or ``Store/refresh()``.
    case localCache
}
