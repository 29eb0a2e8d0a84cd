import Foundation

/// A value shared between threads behind a lock.
///
/// `@unchecked Sendable`: `value` is private and read or written only inside `lock.withLock`, so no two
/// threads touch it at once; `T` is `Sendable`, so what leaves the lock is safe to share.
final class Locked<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T

    init(_ value: T) {
        self.value = value
    }

    /// Runs `body` on the value while holding the lock.
    func withLock<R>(_ body: (inout T) -> R) -> R {
        lock.withLock { body(&value) }
    }

    /// A copy of the value.
    var current: T { withLock { $0 } }
}
