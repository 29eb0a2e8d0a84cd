import Foundation


/// Broadcasts events to any number of subscribers, each with its own `AsyncStream`. Events of the launch
/// (the delivery of unfinished transactions while the store is created, before anyone could subscribe) are
/// kept, up to ``launchBufferLimit``, and given to the first subscriber. Later events reach only the
/// subscribers of the moment.
///
/// `@unchecked Sendable`: every stored property is read and written only while holding `lock`.
final class EventHub: @unchecked Sendable {
    /// How many events are kept for the first subscriber.
    static let launchBufferLimit = 256

    private let lock = NSLock()
    private var subscribers: [UUID: AsyncStream<StoreEvent>.Continuation] = [:]
    private var launchBuffer: [StoreEvent] = []
    private var buffering = true

    /// A new stream of every event emitted from now on (plus the launch buffer for the first subscriber).
    func subscribe() -> AsyncStream<StoreEvent> {
        let (stream, continuation) = AsyncStream<StoreEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        lock.withLock {
            for event in launchBuffer { continuation.yield(event) }
            launchBuffer = []
            buffering = false
            subscribers[id] = continuation
        }
        return stream
    }

    /// Whether an emitted event would reach anyone (a subscriber, or the launch buffer).
    var isListened: Bool {
        lock.withLock { !subscribers.isEmpty || buffering }
    }

    /// Sends `events` to every subscriber, in order.
    func emit(_ events: [StoreEvent]) {
        guard !events.isEmpty else { return }
        lock.withLock {
            if buffering {
                launchBuffer.append(contentsOf: events.prefix(Self.launchBufferLimit - launchBuffer.count))
                buffering = launchBuffer.count < Self.launchBufferLimit
            }
            for continuation in subscribers.values {
                for event in events { continuation.yield(event) }
            }
        }
    }

    /// The launch is over: stop keeping events for the first subscriber.
    func endLaunch() {
        lock.withLock { buffering = false }
    }

    /// Ends every stream.
    func finishAll() {
        let continuations = lock.withLock {
            defer { subscribers = [:] }
            return Array(subscribers.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    private func remove(_ id: UUID) {
        lock.withLock { _ = subscribers.removeValue(forKey: id) }
    }
}
