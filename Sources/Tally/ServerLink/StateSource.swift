/// Where ``Store/state`` comes from.
public enum StateSource: String, Sendable, Hashable {
    /// No server link: the ownership rules over the customer file.
    case local
    /// The server's customer state (`GET /v1/customers/{appUserId}`, or the answer to the last post): every
    /// device of the customer sees the same.
    case server
    /// A server link, but the server cannot be reached now: the server's last customer state as this device
    /// saved it (`server-state.json`, at ``Store/serverStateDate``), also across a restart of the app — what
    /// every device of the customer had then. Stale: purchases made elsewhere since, and spends made by the
    /// app's backend since, are not in it; an entitlement whose expiry date has passed is left out.
    case savedServerState
    /// A server link, but the server could not be reached and either nothing of the server's is saved for this
    /// customer or a purchase of this device waits to be posted: the ownership rules over the customer file —
    /// what this device delivered or restored, including purchases not posted yet — shown until the next
    /// successful post or ``Store/refresh()``.
    case localCache
}
