import Foundation
import TallyLocking
import Tally
import TallySandbox

/// The sandbox's `now`, read from its directory, so `tally sandbox advance` in another process moves the app's
/// time too (``SandboxBackend/clock``). Each look is one small query on a kept connection
/// (``SandboxStore/stamp()``).
final class SandboxClock: Sendable {
    private let store: SandboxStore
    private let last = Locked<Date?>(nil)

    init(store: SandboxStore) {
        self.store = store
    }

    /// The sandbox's now. While the store cannot be read, the last value read, so time never jumps back to the
    /// wall clock; the wall clock only before any read succeeded (a directory with no sandbox, where every
    /// backend call fails anyway).
    func now() -> Date {
        if let stamp = store.stamp() {
            last.withLock { $0 = stamp.now }
            return stamp.now
        }
        return last.withLock { $0 } ?? Date()
    }
}
