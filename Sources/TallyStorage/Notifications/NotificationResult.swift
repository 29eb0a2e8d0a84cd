/// What became of a notification, as stored, shown in history and counted in the metrics.
public enum NotificationResult: String, Sendable, Hashable, CaseIterable {
    /// Its facts changed the owner's stored transactions or renewal info.
    case applied
    /// Its facts were applied to the owner and changed nothing: the store already held them, or newer ones
    /// (an older notification arriving late).
    case unchanged
    /// Its chain has no owner yet and no customer holds its `appAccountToken`: stored, and applied when a
    /// customer posts a transaction of the chain.
    case pending
    /// Recorded only: a type that carries no customer state (`TEST`, `RENEWAL_EXTENSION`/`SUMMARY`, …) or
    /// a type this server does not know.
    case recorded
    /// A retry of a notification already stored (same `notificationUUID`): nothing was written.
    case duplicate
}
