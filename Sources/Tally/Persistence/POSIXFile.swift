import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


/// The few POSIX calls durable persistence needs: open, write everything, flush to disk, rename, close.
enum POSIXFile {
    /// Opens `path` with `flags` (mode 0644 when created), close-on-exec: a child process must not inherit the
    /// directory lock (an `flock` lives as long as any copy of its descriptor).
    static func open(_ path: String, _ flags: Int32) throws(StoreError) -> Int32 {
        #if canImport(Glibc)
        let fd = Glibc.open(path, flags | O_CLOEXEC, 0o644)
        #else
        let fd = Darwin.open(path, flags | O_CLOEXEC, 0o644)
        #endif
        guard fd >= 0 else { throw failure("open", path) }
        return fd
    }

    /// Writes all of `data` to `fd`, retrying short writes and interrupts.
    static func writeAll(_ fd: Int32, _ data: Data, path: String) throws(StoreError) {
        let error: StoreError? = data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                #if canImport(Glibc)
                let written = Glibc.write(fd, base + offset, raw.count - offset)
                #else
                let written = Darwin.write(fd, base + offset, raw.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return failure("write", path)
                }
                offset += written
            }
            return nil
        }
        if let error { throw error }
    }

    /// Flushes `fd`'s data to the disk (``flush(_:)``).
    static func sync(_ fd: Int32, path: String) throws(StoreError) {
        guard flush(fd, metadata: false) == 0 else { throw failure("fsync", path) }
    }

    /// Flushes `fd` to stable storage, 0 on success. On Apple platforms `fsync` only hands the data to the drive,
    /// whose cache a power cut can lose, so this asks for `fcntl(F_FULLFSYNC)` (the drive flushes its cache too),
    /// falling back to `fsync` where the file system refuses it — what SQLite's `fullfsync` does. On Linux
    /// `fsync`, or `fdatasync` unless `metadata` (a journal append needs only its data and length). Every flush of
    /// the customer file, its snapshot and their directory comes here. The Darwin branch is compiled only with an
    /// Apple SDK: not yet run on an Apple device.
    static func flush(_ fd: Int32, metadata: Bool = true) -> Int32 {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
        return fsync(fd)
        #else
        return metadata ? fsync(fd) : fdatasync(fd)
        #endif
    }

    /// Closes `fd`.
    static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    /// `value` as JSON (keys sorted), written atomically to `path` (``writeAtomically(_:to:durable:)``); `what` names
    /// it in the error when it does not encode.
    static func writeJSON<Value: Encodable>(_ value: Value, to path: String, durable: Bool = true, naming what: String)
        throws(StoreError)
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(value) } catch {
            throw StoreError(.storage, "cannot encode \(what): \(error)")
        }
        try writeAtomically(data, to: path, durable: durable)
    }

    /// Writes `data` so readers see the old or the new contents, never a mix: a temporary file beside `path`,
    /// fsync, rename over `path`, fsync the directory. Not `durable`: no fsync at all (for a cache whose loss
    /// is harmless: after a power cut it may hold the old contents, or be empty and fail to decode).
    static func writeAtomically(_ data: Data, to path: String, durable: Bool = true) throws(StoreError) {
        let temporary = path + ".tmp-\(UUID().uuidString)"
        let fd = try open(temporary, O_WRONLY | O_CREAT | O_EXCL)
        do throws(StoreError) {
            try writeAll(fd, data, path: temporary)
            guard !durable || flush(fd) == 0 else { throw failure("fsync", temporary) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let error = failure("rename over \(path)", temporary)
            unlink(temporary)
            throw error
        }
        if durable { try syncDirectory(of: path) }
    }

    /// Flushes the directory holding `path`, so a rename or a new file survives a power cut.
    static func syncDirectory(of path: String) throws(StoreError) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fd = try open(directory, O_RDONLY)
        defer { close(fd) }
        guard flush(fd) == 0 else { throw failure("fsync directory", directory) }
    }

    private static func failure(_ action: String, _ path: String) -> StoreError {
        StoreError(.storage, "cannot \(action) \(path): \(String(cString: strerror(errno))); "
            + "check the data directory exists, is writable and the disk is not full")
    }
}
