import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SandboxDirectory {
    /// A fingerprint of `sandbox.json` that changes with every save (each save renames a new file over it):
    /// its inode, size and modification time.
    public struct StateStamp: Sendable, Hashable {
        var inode: UInt64
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
    }

    /// The state file's fingerprint now; nil when it cannot be read. A poller compares it with the last one
    /// and loads the whole state only when it differs.
    public func stateStamp() -> StateStamp? {
        var info = stat()
        guard stat(stateFile.path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return StateStamp(inode: UInt64(info.st_ino), size: Int64(info.st_size), seconds: Int(modified.tv_sec),
                          nanoseconds: Int(modified.tv_nsec))
    }
}
