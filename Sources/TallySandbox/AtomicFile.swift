import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Crash-safe replacement of a file: write a temporary file in the same directory, fsync it, rename it over
/// the target, fsync the directory.
enum AtomicFile {
    static func write(_ data: Data, to target: URL) throws(SandboxError) {
        let directory = target.deletingLastPathComponent().path
        let temporary = directory + "/." + target.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw failure("cannot create \(temporary)") }
        var ok = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
        let writeErrno = errno
        ok = ok && fsync(fd) == 0
        let syncErrno = errno
        close(fd)
        guard ok else {
            unlink(temporary)
            throw failure("cannot write \(temporary)", code: writeErrno != 0 ? writeErrno : syncErrno)
        }
        guard rename(temporary, target.path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure("cannot rename \(temporary) to \(target.path)", code: code)
        }
        let dirFd = open(directory, O_RDONLY)
        if dirFd >= 0 {
            _ = fsync(dirFd)
            close(dirFd)
        }
    }

    private static func failure(_ what: String, code: Int32 = errno) -> SandboxError {
        SandboxError(.io, "\(what): \(String(cString: strerror(code)))")
    }
}
