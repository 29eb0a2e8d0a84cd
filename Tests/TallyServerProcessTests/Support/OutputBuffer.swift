import Foundation

/// Everything a child process wrote to one pipe, read on a thread of its own until end of file
/// (so the child never blocks on a full pipe).
final class OutputBuffer: Sendable {
    private let bytes = Locked(Data())
    private let closed = Locked(false)
    private let arrived = DispatchSemaphore(value: 0)

    /// Starts reading `handle` on a new thread.
    init(reading handle: FileHandle) {
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                bytes.withLock { $0.append(chunk) }
                arrived.signal()
            }
            closed.withLock { $0 = true }
            arrived.signal()
        }
        thread.start()
    }

    /// The text so far.
    var text: String { String(decoding: bytes.current, as: UTF8.self) }

    /// Whether the writer closed the pipe.
    var isClosed: Bool { closed.current }

    /// Waits until `match` finds something in the text, the pipe closes, or `deadline` passes.
    func wait<T>(until deadline: Date, for match: (String) -> T?) -> T? {
        while true {
            if let found = match(text) { return found }
            if isClosed || Date() >= deadline { return nil }
            _ = arrived.wait(timeout: .now() + min(max(deadline.timeIntervalSinceNow, 0), 0.5))
        }
    }
}
