import Foundation

/// The server's source of the current time, injectable so tests can move time without sleeping.
public struct ServerClock: Sendable {
    /// Returns the current time.
    public let now: @Sendable () -> Date

    /// A clock reading `now`.
    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system clock.
    public static let system = ServerClock(now: { Date() })
}
