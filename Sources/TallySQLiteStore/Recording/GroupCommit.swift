import TallySQLite
import TallyStorage
/// What the leader of a ``WriteQueue`` does with one group: `BEGIN IMMEDIATE`, each write in its own
/// savepoint, one `COMMIT`. A group of one runs without a savepoint, exactly like a lone transaction.
struct GroupCommit {
    /// What became of one member of the group.
    enum Outcome {
        /// Its writes are in the committed transaction.
        case committed
        /// It failed with this error; nothing of it was committed.
        case failed(SQLiteError)
        /// It did not run, or what it wrote was lost when the transaction ended early: it runs again later.
        case retry
    }

    /// One outcome per member, in order, and whether the transaction was committed.
    struct Outcomes {
        var members: [Outcome]
        var committed: Bool
    }

    /// How a member's savepoint ended.
    private enum Step {
        /// Its writes joined the group's transaction.
        case released
        /// Its body failed and its writes were undone; the transaction goes on.
        case undone(SQLiteError)
        /// The transaction cannot go on (SQLite rolled it back, or a savepoint statement failed).
        case aborted(SQLiteError)
    }

    let connection: SQLiteConnection
    let hooks: WriteQueue.Hooks

    /// Runs `group` in one transaction and commits it.
    func run(_ group: [any GroupedWrite]) -> Outcomes {
        do {
            try connection.execute("BEGIN IMMEDIATE")
        } catch {
            return Outcomes(members: Array(repeating: .failed(error), count: group.count), committed: false)
        }
        guard group.count > 1 else { return runAlone(group) }
        var members = Array(repeating: Outcome.retry, count: group.count)
        for (index, member) in group.enumerated() {
            switch step(member) {
            case .released:
                members[index] = .committed
            case .undone(let error):
                members[index] = .failed(error)
            case .aborted(let error):
                // Only this member failed; what the others wrote was lost with the transaction: they run again.
                connection.rollbackIfActive()
                members = members.map { if case .committed = $0 { .retry } else { $0 } }
                members[index] = .failed(error)
                return Outcomes(members: members, committed: false)
            }
        }
        do {
            try commit(size: group.count)
        } catch {
            connection.rollbackIfActive()
            members = members.map { if case .committed = $0 { .failed(error) } else { $0 } }
            return Outcomes(members: members, committed: false)
        }
        return Outcomes(members: members, committed: true)
    }

    /// A group of one: its error rolls back the whole transaction, as a lone transaction would.
    private func runAlone(_ group: [any GroupedWrite]) -> Outcomes {
        do {
            for member in group { try member.run(on: connection) }
            try commit(size: group.count)
            return Outcomes(members: [.committed], committed: true)
        } catch {
            connection.rollbackIfActive()
            return Outcomes(members: [.failed(error)], committed: false)
        }
    }

    /// Runs `member` inside its own savepoint.
    private func step(_ member: any GroupedWrite) -> Step {
        do {
            try connection.execute("SAVEPOINT grouped_write")
        } catch {
            return .aborted(error)
        }
        do {
            try member.run(on: connection)
        } catch {
            guard connection.isInTransaction else { return .aborted(error) }
            do {
                try connection.execute("ROLLBACK TO grouped_write")
                try connection.execute("RELEASE grouped_write")
            } catch {
                return .aborted(error)
            }
            return .undone(error)
        }
        do {
            try connection.execute("RELEASE grouped_write")
        } catch {
            return .aborted(error)
        }
        return .released
    }

    /// The test hook, then COMMIT: durable when it returns (`synchronous=FULL`).
    private func commit(size: Int) throws(SQLiteError) {
        try hooks.beforeCommit?(size)
        try connection.execute("COMMIT")
    }
}
