import Foundation
import Tally
import TallyLocking

/// A clock a test moves by hand: the "now" of an ``InMemoryBackend`` (and so of the `Store` over it), or of
/// any code that takes a `() -> Date`. It stands still until the test moves it, so a renewal, an expiry or a grace
/// period is reached by ``advance(by:)`` or ``set(_:)``, never by waiting.
///
/// ```swift
/// let clock = TestClock()
/// let backend = InMemoryBackend(catalog: catalog, configuration: configuration, clock: clock)
/// clock.advance(days: 31)   // a month later, at once
/// ```
public final class TestClock: Sendable {
    /// The default start: 2026-01-15 00:00:00 UTC.
    public static let defaultStart = Date(timeIntervalSince1970: 1_768_435_200)

    private let current: Locked<Date>

    /// A clock reading `start` until it is moved.
    public init(_ start: Date = TestClock.defaultStart) {
        current = Locked(start)
    }

    /// The clock's time now.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock `seconds` forward (backward when negative).
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Moves the clock `days` days of 86,400 seconds forward.
    public func advance(days: Int) {
        advance(by: Double(days) * 86_400)
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }

    /// The clock as a function, for code that takes one.
    public var function: @Sendable () -> Date { { [self] in now } }

    /// The clock as the engine takes it from a backend (`StoreBackend.clock`).
    public var storeClock: StoreClock { StoreClock(function) }
}
