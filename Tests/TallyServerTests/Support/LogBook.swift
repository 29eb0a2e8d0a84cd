import Synchronization

/// The operator's log as the API writes it, kept in memory for a test to read.
final class LogBook: Sendable {
    private let storage = Mutex<[String]>([])

    /// Adds one line.
    func append(_ line: String) {
        storage.withLock { $0.append(line) }
    }

    /// Every line so far.
    var lines: [String] { storage.withLock { $0 } }
}
