import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TallyLocking
import TallyServices

/// A clock that follows a running `tally sandbox serve` (`GET /tally/v1/clock`), for tests and demos only: the
/// sandbox may run months ahead of the wall clock, and a renewal it made "next month" should be in force on the
/// server too. It keeps the sandbox's offset from the wall clock, read at start and, while it runs as a service,
/// again every half second; production uses the system clock.
final class SandboxClock: Service {
    let name = "sandbox clock"
    /// The sandbox's clock endpoint.
    let url: URL
    private let offset = Locked<TimeInterval>(0)

    /// Reads the sandbox clock once (throws when it cannot); ``run()`` keeps following it.
    init(sandboxURL: URL) throws(EntitlementServerError) {
        url = sandboxURL.appendingPathComponent("tally/v1/clock")
        guard let first = Self.read(url) else {
            throw .clock("cannot read the sandbox clock at \(url.absoluteString): is `tally sandbox serve` running?")
        }
        offset.withLock { $0 = first.timeIntervalSinceNow }
    }

    /// Reads the sandbox clock every half second until cancelled.
    func run() async throws {
        let url = url, offset = offset
        try await RoundService(name: name, every: 0.5, start: .wait) { _ in
            if let now = Self.read(url) { offset.withLock { $0 = now.timeIntervalSinceNow } }
        }.run()
    }

    /// The server clock reading the sandbox's time.
    var serverClock: ServerClock {
        ServerClock(now: { [self] in Date().addingTimeInterval(offset.withLock { $0 }) })
    }

    /// The sandbox's `now`, or nil when it does not answer within a second.
    private static func read(_ url: URL) -> Date? {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 1)
        request.httpMethod = "GET"
        let result = Answer()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, _ in
            if (response as? HTTPURLResponse)?.statusCode == 200, let data,
               let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
               let milliseconds = object["now"] as? Double {
                result.date.withLock { $0 = Date(timeIntervalSince1970: milliseconds / 1_000) }
            }
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 2)
        return result.date.withLock { $0 }
    }

    /// Hands the answer from URLSession's queue to the waiting thread.
    private final class Answer: Sendable {
        let date = Locked<Date?>(nil)
    }
}

extension ServerClock {
    /// The clock `configuration` asks for: the system clock, or the sandbox's when `clock.sandboxURL` is set
    /// (for tests and demos; followed until the process exits, for the one-shot commands); throws when that
    /// sandbox cannot be read.
    public static func configured(for configuration: ServerConfiguration) throws(EntitlementServerError) -> ServerClock {
        guard let url = configuration.sandboxClockURL else { return .system }
        let followed = try SandboxClock(sandboxURL: url)
        ServiceGroup([followed], report: { _ in }).start()  // never stopped: it lives as long as the command
        return followed.serverClock
    }
}
