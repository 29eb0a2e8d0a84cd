import Foundation

/// Wall-clock timing for benchmarks.
enum Stopwatch {
    /// Seconds taken by `body`.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// The best (smallest) of `runs` timings: the least disturbed by the machine's other work.
    static func best(of runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<runs { best = min(best, try seconds(body)) }
        return best
    }
}

/// Printing benchmark lines: a measurement, its target, and the ratio between them.
enum Report {
    static func header(_ title: String) {
        print("== \(title)")
    }

    /// A "lower is better" measurement against a limit.
    static func underLimit(_ name: String, value: Double, unit: String, limit: Double) {
        let verdict = value <= limit ? "OK" : "MISSED"
        print(String(format: "  %@: %.2f %@ (limit %.0f %@, %.2f× the limit) %@",
                     name, value, unit, limit, unit, value / limit, verdict))
    }

    /// A "higher is better" rate against a target.
    static func overTarget(_ name: String, rate: Double, unit: String, target: Double) {
        let verdict = rate >= target ? "OK" : "MISSED"
        print(String(format: "  %@: %.0f %@ (target ≥ %.0f, %.2f× the target) %@",
                     name, rate, unit, target, rate / target, verdict))
    }

    static func line(_ text: String) { print("  " + text) }
}

/// Processor time (user + system), which a busy shared machine does not inflate the way it inflates wall time.
enum CPUTime {
    /// Seconds of processor time this process has used so far.
    static var ownSeconds: Double { seconds(RUSAGE_SELF) }

    /// Seconds of processor time the calling thread has used so far (`CLOCK_THREAD_CPUTIME_ID`).
    static var threadSeconds: Double {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return .nan }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Seconds of processor time used so far by child processes that have been waited for.
    static var childrenSeconds: Double { seconds(RUSAGE_CHILDREN) }

    #if canImport(Glibc)
    private static func seconds(_ who: __rusage_who) -> Double { seconds(who: __rusage_who_t(who.rawValue)) }
    #else
    private static func seconds(_ who: Int32) -> Double { seconds(who: who) }
    #endif

    private static func seconds(who: Int32) -> Double {
        var usage = rusage()
        guard getrusage(who, &usage) == 0 else { return .nan }
        func value(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return value(usage.ru_utime) + value(usage.ru_stime)
    }
}
