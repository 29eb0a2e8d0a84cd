import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SandboxDirectory {
    /// The lock file that serializes changes between processes, `<directory>/sandbox.lock`.
    public var lockFile: URL { url.appendingPathComponent("sandbox.lock") }

    /// Loads the sandbox, lets `body` change it, and saves it, holding an exclusive `flock` on
    /// ``lockFile`` throughout: two processes (the CLI approving an Ask to Buy while an app's engine
    /// delivers a purchase) never overwrite each other's changes. Nothing is saved if `body` throws.
    public func update<T>(_ body: (inout Sandbox) throws -> T) throws -> T {
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
        var sandbox = try load()
        let result = try body(&sandbox)
        try save(sandbox)
        return result
    }

    /// Runs a store call whose failure is itself a change to keep, under the same lock: an injected fault is
    /// taken (its `remaining` count goes down) and a `failed` event logged even though the call throws
    /// (``Sandbox/products(ids:)``, ``Sandbox/restore(account:device:)``). The sandbox is saved whether the
    /// call answers or fails; then the failure is thrown. Use ``update(_:)`` for changes that must not be
    /// saved half-done.
    public func answer<T>(_ body: (inout Sandbox) throws(SandboxError) -> T) throws -> T {
        try update { sandbox in
            Result { () throws(SandboxError) -> T in try body(&sandbox) }
        }.get()
    }
}
