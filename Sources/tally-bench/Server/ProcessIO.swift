import Foundation

/// Write calls and bytes another process has made so far, from `/proc/<pid>/io` (Linux): how many `write`s
/// and `pwrite`s a request costs the server (WAL frames, checkpoints, temporary files, its wake-up eventfd),
/// which its processor time alone does not show.
struct ProcessIO {
    /// `syscw`: write-type system calls (`write`, `pwrite64`, `writev`; not `sendmsg`).
    var writeCalls: Int
    /// `wchar`: bytes handed to those calls.
    var writtenBytes: Int

    /// The counters of process `pid` now; nil where `/proc` is not there (macOS) or cannot be read.
    static func now(of pid: Int32) -> ProcessIO? {
        #if canImport(Glibc)
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return nil }
        var fields: [Substring: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1].trimmingCharacters(in: .whitespaces)) {
                fields[parts[0]] = value
            }
        }
        guard let calls = fields["syscw"], let bytes = fields["wchar"] else { return nil }
        return ProcessIO(writeCalls: calls, writtenBytes: bytes)
        #else
        return nil
        #endif
    }

    /// "8.4 write calls, 21.3 KB written per post", from counters taken before and after `requests` requests.
    static func perRequest(from before: ProcessIO?, to after: ProcessIO?, requests: Int, noun: String) -> String? {
        guard let before, let after, requests > 0 else { return nil }
        let calls = Double(after.writeCalls - before.writeCalls) / Double(requests)
        let kilobytes = Double(after.writtenBytes - before.writtenBytes) / 1_024 / Double(requests)
        return String(format: "%.1f write calls, %.1f KB written per %@", calls, kilobytes, noun)
    }
}
