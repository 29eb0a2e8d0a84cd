import Foundation
import TallySandbox

/// The engine's clock for the market: the sandbox's `now`, re-read from the data directory so that
/// `tally sandbox advance` in another process moves the market's time too.
final class SandboxClock: Sendable {
    private let directory: SandboxDirectory
    private let last: LockedValue<Date>

    /// A clock over `directory`, starting at `start` (the sandbox's now when the market opened).
    init(directory: SandboxDirectory, start: Date) {
        self.directory = directory
        last = LockedValue(start)
    }

    /// The sandbox's now; the last value read when the directory is briefly unreadable (mid-save by
    /// another process), so time never jumps back to the wall clock.
    func now() -> Date {
        if let sandbox = try? directory.load() {
            last.withLock { $0 = sandbox.now }
            return sandbox.now
        }
        return last.withLock { $0 }
    }
}
