import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a whole file so readers see either the old or the new contents, never a mix.
enum AtomicFile {
    /// Writes `data` to a temporary file beside `path` with `mode`, fsyncs it, renames it over
    /// `path`, then fsyncs the directory.
    static func write(_ data: Data, to path: String, mode: mode_t) throws(SigningError) {
        let temporary = path + ".tmp-\(UUID().uuidString)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard fd >= 0 else { throw failure("create", temporary) }
        if let error = fill(fd, with: data, path: temporary) {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0 else {
            let error = failure("close", temporary)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let renameError = failure("rename to \(path)", temporary)
            unlink(temporary)
            throw renameError
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let dirFD = open(folder, O_RDONLY)
        if dirFD >= 0 {
            _ = fsync(dirFD)
            close(dirFD)
        }
    }

    /// Writes all of `data` to `fd` and fsyncs it; the error, if any.
    private static func fill(_ fd: Int32, with data: Data, path: String) -> SigningError? {
        data.withUnsafeBytes { raw -> SigningError? in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let n = systemWrite(fd, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return failure("write", path)
                }
                offset += n
            }
            return fsync(fd) == 0 ? nil : failure("fsync", path)
        }
    }

    private static func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, bytes, count)
        #else
        Darwin.write(fd, bytes, count)
        #endif
    }

    private static func failure(_ action: String, _ path: String) -> SigningError {
        let reason = String(cString: strerror(errno))
        return SigningError(.fileSystem, "cannot \(action) \(path): \(reason)", path: path)
    }
}
