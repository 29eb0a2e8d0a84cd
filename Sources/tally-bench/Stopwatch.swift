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
