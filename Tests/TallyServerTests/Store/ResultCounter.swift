import Foundation

/// Counts outcomes reported from many threads.
///
/// `@unchecked Sendable`: `storage` is private and read or written only while holding `lock`.
final class ResultCounter: @unchecked Sendable {
    enum Kind: Hashable { case recorded, duplicate, refused, failed }

    private let lock = NSLock()
    private var storage: [Kind: Int] = [:]

    func add(_ kind: Kind) {
        lock.withLock { storage[kind, default: 0] += 1 }
    }

    var counts: [Kind: Int] { lock.withLock { storage } }
}
