/// Keeps a callback registration alive; cancelling it, or releasing it, stops the callbacks.
public final class StoreSubscription: Sendable {
    private let task: Task<Void, Never>

    init(task: Task<Void, Never>) {
        self.task = task
    }

    deinit {
        task.cancel()
    }

    /// Stops the callbacks.
    public func cancel() {
        task.cancel()
    }
}
