import Foundation
import Synchronization
import Tally
import TallySandbox

/// The sandbox's `now`, read from its directory, so `tally sandbox advance` in another process moves the app's
/// time too (``SandboxBackend/clock``). The state is read again only when its file changed (modification date,
/// size or file number differ), so looking at the time is a `stat` most of the time.
final class SandboxClock: Sendable {
    private struct Reading {
        var stamp: [String]?
        var now: Date?
    }

    private let directory: SandboxDirectory
    private let last = Mutex(Reading())

    init(directory: SandboxDirectory) {
        self.directory = directory
    }

    /// The sandbox's now. While the directory is briefly unreadable (mid-save by another process), the last
    /// value read, so time never jumps back to the wall clock; the wall clock only before any read succeeded
    /// (a directory with no sandbox, where every backend call fails anyway).
    func now() -> Date {
        let stamp = fileStamp()
        if let stamp, let cached = last.withLock({ $0.stamp == stamp ? $0.now : nil }) { return cached }
        if let sandbox = try? directory.load() {
            last.withLock { $0 = Reading(stamp: stamp, now: sandbox.now) }
            return sandbox.now
        }
        return last.withLock { $0.now } ?? Date()
    }

    /// What identifies one version of the state file; nil when it cannot be read.
    private func fileStamp() -> [String]? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: directory.stateFile.path) else {
            return nil
        }
        return [attributes[.modificationDate], attributes[.size], attributes[.systemFileNumber]].map { "\($0 ?? "")" }
    }
}
