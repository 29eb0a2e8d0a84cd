import Foundation
import Synchronization
@testable import TallyServer

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    func set(_ date: Date) {
        current.withLock { $0 = date }
    }

    var serverClock: ServerClock { ServerClock(now: { [self] in now }) }
}
