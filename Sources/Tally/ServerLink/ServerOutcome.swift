/// What the server did with one posted transaction: the `outcome` of its answer (docs/server.md, *API*), or
/// ``kept`` for a 409 `owned_by_another_customer`.
public enum ServerOutcome: String, Sendable, Hashable, Codable {
    /// Stored for the first time.
    case inserted
    /// A newer copy replaced the stored one (a refund, a refund reversal).
    case updated
    /// Already stored exactly so: nothing changed.
    case unchanged
    /// Its chain belonged to another customer and moved to this one (the server's `ownership: transfer`).
    case transferred
    /// It stays with another customer (a consumable, or any chain under the server's `ownership: keep`): this
    /// customer gets nothing from it.
    case kept
    /// A subscription period stored that starts after the server's clock.
    case future
}
