import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension EngineBenchmark {
    /// The flush the engine's journal uses per delivery (`POSIXFile.sync` in module Tally).
    #if canImport(Glibc)
    static let syncCallName = "fdatasync"
    #else
    static let syncCallName = "fsync"
    #endif

    /// Appends a ~200-byte line to `file` and flushes it, `lines` times; lines per second.
    static func rawSyncRate(file: URL, lines: Int) throws -> Double {
        let fd = open(file.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { throw BenchError("cannot open \(file.path): errno \(errno)") }
        defer { close(fd) }
        let line = Array((String(repeating: "x", count: 199) + "\n").utf8)
        let start = now()
        for _ in 0..<lines {
            let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == line.count else { throw BenchError("write to \(file.path) failed: errno \(errno)") }
            guard flush(fd) == 0 else { throw BenchError("\(syncCallName) of \(file.path) failed: errno \(errno)") }
        }
        return Double(lines) / seconds(since: start)
    }

    private static func flush(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        fdatasync(fd)
        #else
        fsync(fd)
        #endif
    }
}
