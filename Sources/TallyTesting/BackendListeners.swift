import Foundation
import Tally

/// The streams of the stores listening. `@unchecked Sendable`: `continuations` is used only under `lock`.
final class Listeners: @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [UUID: AsyncStream<TransactionUpdate>.Continuation] = [:]

    var count: Int { lock.withLock { continuations.count } }

    func add() -> AsyncStream<TransactionUpdate> {
        let (stream, continuation) = AsyncStream<TransactionUpdate>.makeStream()
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        lock.withLock { continuations[id] = continuation }
        return stream
    }

    func yield(_ update: TransactionUpdate) {
        lock.withLock { for continuation in continuations.values { continuation.yield(update) } }
    }

    private func remove(_ id: UUID) {
        lock.withLock { _ = continuations.removeValue(forKey: id) }
    }
}
