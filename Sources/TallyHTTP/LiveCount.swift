import Foundation

/// A thread-safe counter: in debug builds, how many ``RequestState`` values of one server are alive.
///
/// `@unchecked Sendable`: `count` is read and written only while holding `lock`.
final class LiveCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Adds `delta` (negative to subtract).
    func add(_ delta: Int) {
        lock.lock()
        count += delta
        lock.unlock()
    }

    /// The current value.
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
