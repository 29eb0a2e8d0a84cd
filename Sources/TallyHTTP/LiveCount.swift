import TallyLocking

/// A thread-safe counter: how many ``RequestState`` values of one server are alive, that is, how many
/// requests are in flight (from the access handler's first call until libmicrohttpd reports them complete,
/// after the response was sent or the connection died). A graceful stop waits for it to reach 0.
final class LiveCount: Sendable {
    private let count = Locked(0)

    /// Adds `delta` (negative to subtract).
    func add(_ delta: Int) {
        count.withLock { $0 += delta }
    }

    /// The current value.
    var value: Int {
        count.withLock { $0 }
    }
}
