/// The steps of delivering one transaction, in order. A transaction is finished with the backend only after
/// its effect is durably written (and, with a ``ServerLink``, after the server took it), so a process killed at any step credits it exactly once on the next launch.
///
/// Raw values are the names a test harness uses (for example `TALLY_DELIVERY_PAUSE=written`, read by the
/// harness executable, never by the library).
public enum DeliveryStep: String, Sendable, Hashable, CaseIterable {
    /// (1) The transaction was received from the backend; nothing is written yet.
    case received
    /// (2) Its effect (ownership, currency credit) is durably written to the customer file; not finished yet.
    case written
    /// (3) With a ``ServerLink`` only: the server answered the post (2xx, or a final 409/422 refusal); not
    /// finished yet. Killed here, the next launch delivers it again and posts it again, which the server
    /// dedupes by transaction id.
    case posted
    /// (4) It was finished with the backend; events are not emitted yet.
    case finished
    /// (5) Its events were emitted; delivery is complete.
    case emitted
}

/// Called at each ``DeliveryStep`` with the transaction id; the store waits for it to return. For test
/// harnesses that pause (or get killed) at a named step; apps do not need it.
public typealias DeliveryObserver = @Sendable (DeliveryStep, String) async -> Void
