import Foundation
import TallyCrypto

/// The floor every verified write is measured against: one raw ES256 (P-256 ECDSA + SHA-256) verification, timed in
/// this process through OpenSSL (processor time per verification, so other work on a shared machine does not
/// inflate it), beside `openssl speed ecdsap256`'s verify rate measured in the same run.
struct ES256Baseline {
    /// Processor seconds of one raw verification in this process (best of three rounds).
    var cpuSecondsPerVerify: Double
    /// Raw verifications per wall-clock second on one thread in this process (best of three rounds).
    var rate: Double
    /// `openssl speed ecdsap256`'s verify/s, when the openssl command is there.
    var opensslRate: Double?

    /// Measures `count` raw verifications three times, then `openssl speed` for `opensslSeconds`.
    static func measure(count: Int = 20_000, opensslSeconds: Int = 3) throws -> ES256Baseline {
        guard let raw = RawECDSA.sample(), raw.verify() else { throw BenchError("raw ECDSA sample failed") }
        var cpu = Double.infinity, wall = Double.infinity
        for _ in 0..<3 {
            let before = CPUTime.threadSeconds
            let seconds = Stopwatch.seconds { for _ in 0..<count where !raw.verify() { fatalError("raw verify failed") } }
            cpu = min(cpu, CPUTime.threadSeconds - before)
            wall = min(wall, seconds)
        }
        return ES256Baseline(cpuSecondsPerVerify: cpu / Double(count), rate: Double(count) / wall,
                             opensslRate: opensslSpeed(seconds: opensslSeconds))
    }

    /// `openssl speed -seconds N ecdsap256`'s verify/s (the last number of its nistp256 line); nil without openssl.
    static func opensslSpeed(seconds: Int) -> Double? {
        guard let openssl = BenchTools.find("openssl"),
            let text = try? BenchTools.output(of: openssl, ["speed", "-seconds", String(seconds), "ecdsap256"]),
            let line = text.split(separator: "\n").last(where: { $0.contains("(nistp256)") }),
            let last = line.split(separator: " ").last
        else { return nil }
        return Double(last)
    }

    /// "one ES256 verify: 0.062 ms CPU in this process (16,100/s); openssl speed ecdsap256: 16,982 verify/s".
    var description: String {
        let speed = opensslRate.map { String(format: "; openssl speed ecdsap256: %.0f verify/s (%.3f ms)", $0, 1e3 / $0) }
            ?? "; openssl speed not measured (no openssl command)"
        return String(format: "one ES256 verification (raw OpenSSL, this process): %.3f ms CPU, %.0f/s on one thread",
                      cpuSecondsPerVerify * 1e3, rate) + speed
    }
}
