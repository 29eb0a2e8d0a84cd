import TallySQLite
import TallyStorage
extension WriteQueue {
    /// Test hooks, set only by tests (both nil in the server).
    struct Hooks: Sendable {
        /// Called under the queue's lock each time a write is queued, with the number now queued (not yet
        /// taken by a leader). It must not call back into the queue.
        var enqueued: (@Sendable (Int) -> Void)?
        /// Called by the leader just before COMMIT with the group's size; an error thrown here is handled as
        /// a failed COMMIT.
        var beforeCommit: (@Sendable (Int) throws(SQLiteError) -> Void)?
    }
}
