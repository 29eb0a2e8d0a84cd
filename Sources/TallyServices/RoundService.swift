import Foundation

/// The usual service: a blocking round on a ``BlockingQueue`` of its own, then a wait, until cancelled. The wait
/// is ``interval`` seconds, or less when its ``Wakeup`` is signalled; cancellation ends a wait at once and lets a
/// round under way finish.
public struct RoundService: Service {
    /// Whether `run()` starts with a round or with a wait.
    public enum Start: Sendable {
        /// A round at once (work left over from before a restart).
        case round
        /// A wait first (the caller has just done the work, or it is not due yet).
        case wait
    }

    /// The service's name, also its queue's label.
    public let name: String
    /// Seconds between rounds.
    public let interval: TimeInterval
    private let wakeup: Wakeup?
    private let start: Start
    private let queue: BlockingQueue
    private let round: @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> Void

    /// A service named `name` running `round` every `interval` seconds, or as soon as `wakeup` is signalled;
    /// `round` gets `isCancelled`, true once a stop is waiting for it.
    public init(name: String, every interval: TimeInterval, wakeup: Wakeup? = nil, start: Start,
                round: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> Void) {
        self.name = name
        self.interval = interval
        self.wakeup = wakeup
        self.start = start
        self.round = round
        queue = BlockingQueue(label: "tally \(name)")
    }

    /// Rounds and waits until cancelled.
    public func run() async throws {
        if start == .wait { try await pause() }
        while true {
            try Task.checkCancellation()  // a stop before a round starts skips it
            await queue.run(round)
            try await pause()
        }
    }

    /// The wait between rounds; throws `CancellationError` at once when cancelled.
    private func pause() async throws {
        if let wakeup {
            try await wakeup.wait(upTo: interval.nanosecondsForWaiting)
        } else {
            try await Task.sleep(nanoseconds: interval.nanosecondsForWaiting)
        }
    }
}
