import Foundation
import TallyLocking


/// Broadcasts events to any number of subscribers, each with its own `AsyncStream`.
///
/// Events emitted before the first subscriber attaches (the launch: unfinished transactions delivered while the
/// store is created, and anything until the app subscribes) are kept, up to ``replayLimit``, and replayed to
/// every subscriber when it attaches, first subscriber or later ones alike. After the first subscriber
/// attaches, an event reaches the subscribers of the moment. Once the replay is full, nothing more is kept and
/// no one listens until a subscriber attaches (an app that never subscribes pays nothing for events).
final class EventHub: Sendable {
    /// How many events before the first subscriber are kept for replay.
    static let replayLimit = 256

    private struct State {
        var subscribers: [UUID: AsyncStream<StoreEvent>.Continuation] = [:]
        /// The events emitted before the first subscriber attached.
        var replay: [StoreEvent] = []
        var attached = false
        /// The replay filled up before anyone attached: later events before the first subscriber are dropped.
        var overflowed = false
        var finished = false
    }

    private let state = Locked(State())

    /// A new stream: the replayed events of before the first subscriber, then every event emitted from now on.
    func subscribe() -> AsyncStream<StoreEvent> {
        let (stream, continuation) = AsyncStream<StoreEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        let finished = state.withLock { state in
            for event in state.replay { continuation.yield(event) }
            state.attached = true
            if !state.finished { state.subscribers[id] = continuation }
            return state.finished
        }
        if finished { continuation.finish() }
        return stream
    }

    /// Whether an emitted event would reach anyone (a subscriber, or the replay before the first subscriber).
    var isListened: Bool {
        state.withLock { !$0.attached && !$0.overflowed || !$0.subscribers.isEmpty }
    }

    /// Sends `events` to every subscriber, in order. Returns true when this call filled the replay (before the
    /// first subscriber) and events were dropped: once, for the store to report.
    @discardableResult
    func emit(_ events: [StoreEvent]) -> Bool {
        guard !events.isEmpty else { return false }
        return state.withLock { state in
            var dropped = false
            if !state.attached, !state.overflowed {
                let room = max(0, Self.replayLimit - state.replay.count)
                state.replay.append(contentsOf: events.prefix(room))
                if events.count > room {
                    state.overflowed = true
                    dropped = true
                }
            }
            for continuation in state.subscribers.values {
                for event in events { continuation.yield(event) }
            }
            return dropped
        }
    }

    /// Ends every stream; later subscribers get the replay and an ended stream.
    func finishAll() {
        let continuations = state.withLock { state in
            defer { state.subscribers = [:] }
            state.finished = true
            return Array(state.subscribers.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    private func remove(_ id: UUID) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }
}
