import Foundation
import TallyLocking

/// One process's open handle on a sandbox directory, for an app's backend: a kept SQLite connection, a cheap
/// look at the store's change counter and clock (``stamp()``, one indexed row), and account-scoped reads and
/// changes that reuse the account's records read before when nothing was saved since — so waiting for a change
/// costs one small query, and finishing a transaction writes a few rows without reading the account again.
public final class SandboxStore: Sendable {
    /// What ``stamp()`` reads.
    public struct Stamp: Sendable, Hashable {
        /// Goes up by one with every change saved, by any process.
        public var generation: Int64
        /// The sandbox clock.
        public var now: Date
    }

    private struct Snapshot: Sendable {
        var generation: Int64
        var sandbox: Sandbox
    }

    private struct State {
        var database: SandboxDatabase?
        var snapshots: [String: Snapshot] = [:]
    }

    /// The directory.
    public let directory: SandboxDirectory
    private let state = Locked(State())

    /// A handle on `directory`; the database is opened on first use (the directory may not hold a sandbox yet).
    public init(directory: SandboxDirectory) {
        self.directory = directory
    }

    /// The change counter and the clock; nil when the sandbox cannot be read (none yet, or a damaged one).
    public func stamp() -> Stamp? {
        state.withLock { state in
            guard let database = try? Self.database(&state, directory),
                  let stamp = try? database.stamp() else { return nil }
            return Stamp(generation: stamp.generation, now: stamp.now)
        }
    }

    /// The account that made `transactionId`, read with one query (no account is loaded); nil for an id the
    /// sandbox never issued.
    public func account(ofTransaction transactionId: String) throws(SandboxError) -> String? {
        try SandboxDirectory.typed {
            try state.withLock { state in try Self.database(&state, directory).account(ofTransaction: transactionId) }
        }
    }

    /// The store-wide state and one account's records (no events), as saved now.
    public func read(account: String) throws(SandboxError) -> Sandbox {
        try SandboxDirectory.typed {
            try state.withLock { state in
                let database = try Self.database(&state, directory)
                return try database.transaction(writing: false) {
                    try Self.snapshot(&state, database, account: account).sandbox
                }
            }
        }
    }

    /// A change to one account (and the store-wide state), as ``SandboxDirectory/update(accounts:_:)``.
    public func update<T: Sendable>(account: String, _ body: (inout Sandbox) throws -> T) throws -> T {
        try state.withLock { state in
            try directory.withLock {
                let database = try Self.database(&state, directory)
                var saved: Snapshot?
                let result = try database.transaction(writing: true) {
                    let original = try Self.snapshot(&state, database, account: account)
                    var sandbox = original.sandbox
                    sandbox.eventBase = try database.eventCount()
                    let result = try body(&sandbox)
                    try SandboxDirectory.checkScope(sandbox, [account])
                    try database.saveChange(sandbox, original: original.sandbox.accounts,
                                            signer: directory.notificationSigner)
                    sandbox.eventBase += sandbox.events.count
                    sandbox.events = []
                    sandbox.notificationSubjects = [:]
                    saved = Snapshot(generation: original.generation + 1, sandbox: sandbox)
                    return result
                }
                state.snapshots[account] = saved
                return result
            }
        }
    }

    /// A store call whose failure is kept too, as ``SandboxDirectory/answer(accounts:_:)``, for one account.
    public func answer<T: Sendable>(account: String, _ body: (inout Sandbox) throws(SandboxError) -> T) throws -> T {
        try update(account: account) { sandbox in
            Result { () throws(SandboxError) -> T in try body(&sandbox) }
        }.get()
    }

    /// The account's records as saved now: the kept ones when the generation did not move, else read again.
    /// Inside a transaction.
    private static func snapshot(_ state: inout State, _ database: SandboxDatabase,
                                 account: String) throws -> Snapshot {
        guard let stamp = try database.stamp() else {
            throw SandboxError(.corruptState, "\(database.path) holds no sandbox (its store row is missing)")
        }
        if let kept = state.snapshots[account], kept.generation == stamp.generation { return kept }
        let snapshot = Snapshot(generation: stamp.generation,
                                sandbox: try database.readForChange(accounts: [account]))
        state.snapshots[account] = snapshot
        return snapshot
    }

    private static func database(_ state: inout State, _ directory: SandboxDirectory) throws -> SandboxDatabase {
        if let database = state.database { return database }
        let database = try directory.openDatabase()
        state.database = database
        return database
    }
}
