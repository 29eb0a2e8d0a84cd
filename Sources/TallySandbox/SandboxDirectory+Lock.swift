import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SandboxDirectory {
    /// The lock file that serializes changes between processes, `<directory>/sandbox.lock`.
    public var lockFile: URL { url.appendingPathComponent("sandbox.lock") }

    /// Loads the sandbox (every account; the log only from this change on: ``Sandbox/events`` holds this
    /// change's events), lets `body` change it, and saves what changed in one SQLite transaction, holding an
    /// exclusive `flock` on ``lockFile`` throughout: two processes (the CLI approving an Ask to Buy while an
    /// app's engine delivers a purchase) never overwrite each other's changes. Nothing is saved if `body` throws.
    public func update<T>(_ body: (inout Sandbox) throws -> T) throws -> T {
        try change(accounts: nil, body)
    }

    /// As ``update(_:)``, reading only the store-wide state and the named accounts: the cost of the change
    /// follows what it touches, not the size of the sandbox. `body` must act on those accounts only (a change
    /// to another account is refused and nothing is saved); other accounts look empty inside it.
    public func update<T>(accounts: [String], _ body: (inout Sandbox) throws -> T) throws -> T {
        try change(accounts: accounts, body)
    }

    /// Runs a store call whose failure is itself a change to keep, under the same lock: an injected fault is
    /// taken (its `remaining` count goes down) and a `failed` event logged even though the call throws
    /// (``Sandbox/products(ids:)``, ``Sandbox/restore(account:device:)``). The sandbox is saved whether the
    /// call answers or fails; then the failure is thrown. Use ``update(_:)`` for changes that must not be
    /// saved half-done. `accounts`, when given, scopes it as ``update(accounts:_:)``.
    public func answer<T>(accounts: [String]? = nil,
                          _ body: (inout Sandbox) throws(SandboxError) -> T) throws -> T {
        try change(accounts: accounts) { sandbox in
            Result { () throws(SandboxError) -> T in try body(&sandbox) }
        }.get()
    }

    private func change<T>(accounts names: [String]?, _ body: (inout Sandbox) throws -> T) throws -> T {
        try withLock {
            let database = try openDatabase()
            return try database.transaction(writing: true) {
                let original = try database.readForChange(accounts: names)
                var sandbox = original
                let result = try body(&sandbox)
                if let names { try Self.checkScope(sandbox, names) }
                try database.saveChange(sandbox, original: original.accounts, signer: notificationSigner)
                return result
            }
        }
    }

    /// Refuses a scoped change that reached an account it did not read.
    static func checkScope(_ sandbox: Sandbox, _ names: [String]) throws(SandboxError) {
        if let stray = sandbox.accounts.keys.first(where: { !names.contains($0) }) {
            throw SandboxError(.io, "a change scoped to \(names) touched account '\(stray)'; nothing was saved")
        }
    }

    /// Runs `body` holding an exclusive `flock` on ``lockFile`` (waiting for it as long as it takes).
    func withLock<T, Failure: Error>(_ body: () throws(Failure) -> T) throws -> T {
        let descriptor = open(lockFile.path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else {
            throw SandboxError(.io, "cannot open the lock file \(lockFile.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw SandboxError(.io, "cannot lock \(lockFile.path): \(String(cString: strerror(errno)))")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
