import Foundation

/// Processor time (user + system) another process has used so far, from `/proc/<pid>/stat` (Linux): the
/// server's own cost per request, which wrk and the machine's other work do not inflate.
enum ProcessCPU {
    /// Seconds of processor time process `pid` has used so far; nil where `/proc` is not there (macOS).
    static func seconds(of pid: Int32) -> Double? {
        #if canImport(Glibc)
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": state is field 3, utime field 14, stime field 15 (proc(5)), in clock ticks.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ticks > 0 ? (user + system) / ticks : nil
        #else
        return nil
        #endif
    }
}
