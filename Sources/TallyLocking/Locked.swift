import Foundation

/// A value guarded by a lock: the one lock idiom of every Tally module, on every platform Tally supports.
///
/// Synchronization's `Mutex` needs iOS 18 / macOS 15; Tally's floor is iOS 15 / macOS 12, so this wraps
/// Foundation's `NSLock` (a POSIX mutex on Linux and Darwin alike) with `Mutex`'s shape: the value is reached only
/// inside ``withLock(_:)``, and only `sending` values go in or come out, so no reference escapes unguarded.
///
/// `@unchecked Sendable`: `value` is read and written only between `lock.lock()` and `lock.unlock()` in
/// ``withLock(_:)``, and it enters (``init(_:)``) and leaves (``withLock(_:)``'s result) only as `sending`, which the
/// compiler checks at each call: the same discipline that makes `Mutex` `Sendable`.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Guards `initialValue`.
    public init(_ initialValue: sending Value) {
        value = initialValue
    }

    /// Runs `body` with exclusive access to the value; whatever `body` throws is rethrown, its type kept.
    /// Not reentrant: calling `withLock` on the same instance inside `body` deadlocks.
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
