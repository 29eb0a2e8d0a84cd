import Foundation
import TallyStorage

/// A ``SQLiteConnection`` that many threads share, one at a time.
///
/// `@unchecked Sendable` is sound because `connection` is private, set once in `init`, and touched only
/// between `lock.lock()` and `lock.unlock()` in ``withConnection(_:)`` / ``withConnectionIfAvailable(_:)``;
/// `body` cannot keep it (the closure is non-escaping and `SQLiteConnection` is not `Sendable`, so it cannot
/// be returned out through a `Sendable` result or captured by another thread's task).
final class LockedConnection: @unchecked Sendable {
    private let lock = NSLock()
    private let connection: SQLiteConnection

    /// Takes ownership of `connection`; nothing else may keep a reference to it.
    init(_ connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Runs `body` with the connection, waiting for the lock.
    func withConnection<T: Sendable, E: Error>(_ body: (SQLiteConnection) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }

    /// Runs `body` with the connection if no other thread holds it; nil (and `body` not run) otherwise.
    func withConnectionIfAvailable<T: Sendable, E: Error>(
        _ body: (SQLiteConnection) throws(E) -> T
    ) throws(E) -> T? {
        guard lock.try() else { return nil }
        defer { lock.unlock() }
        return try body(connection)
    }
}
