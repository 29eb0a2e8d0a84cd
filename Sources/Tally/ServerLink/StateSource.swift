/// Where ``Store/state`` comes from.
public enum StateSource: String, Sendable, Hashable {
    /// No server link: the ownership rules over the customer file.
    case local
    /// The server's customer state (`GET /v1/customers/{appUserId}`, or the answer to the last post): every
    /// device of the customer sees the same.
    case server
    /// A server link, but the server cannot take what this device sends now: the server's last customer state
    /// for this customer (saved in `server-state.json` at ``Store/serverStateDate``, so also across a restart of
    /// the app) — what every device of the customer had then — plus what this device's purchases not posted yet
    /// add (coins, features, products). Stale: purchases made elsewhere since, and spends of the app's backend
    /// since, are not in it; an entitlement whose expiry date has passed is left out.
    case savedServerState
    /// A server link, but the server could not be reached and nothing of the server's is kept for this
    /// customer: the ownership rules over the customer file — what this device delivered or restored, including
    /// purchases not posted yet — shown until the server answers (a post, or ``Store/refresh()``).
    case localCache
}
