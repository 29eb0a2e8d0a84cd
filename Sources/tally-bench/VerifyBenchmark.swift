import Foundation
import TallyCore
import TallySandbox
import TallyVerify

/// `tally-bench verify`: JWS verifications per second on one thread and on all cores, beside Apple's Python
/// app-store-server-library verifying the same signed transactions with the same root, and beside the raw
/// OpenSSL ECDSA P-256 verify rate, and the real `tally verify --lines` process beside the one-thread rate — all
/// measured in this run.
enum VerifyBenchmark {
    static let count = 4_000
    static let bundleId = "com.example.bench"

    static func run() {
        Report.header("verify")
        do {
            try measure()
        } catch {
            Report.line("could not run: \(error)")
        }
    }

    private static func measure() throws {
        let now = Date()
        let authority = try SandboxCertificateAuthority.generate(now: now)
        let signer = try authority.signer()
        let tokens = try (0..<count).map { index in
            try signer.signTransaction(DeviceTransaction.consumable(
                id: String(2_000_000_100_000_000 + index), bundleId: bundleId, productId: "coins.\(index % 7)",
                now: now))
        }
        Report.line("payloads shaped as a device's (deviceVerification and deviceVerificationNonce included): "
            + "\(tokens[0].utf8.count)-byte JWS")
        guard let root = Certificate(der: authority.rootDER) else { throw BenchError("root does not parse") }
        let verifier = try SignedDataVerifier(rootCertificates: [root], bundleId: bundleId, environment: .sandbox)
        guard case .success = verifier.verifyTransaction(tokens[0]) else { throw BenchError("first JWS failed") }
        // Profiling aid: TALLY_BENCH_VERIFY_ONLY=N loops only the single-thread verification N times.
        if let rounds = ProcessInfo.processInfo.environment["TALLY_BENCH_VERIFY_ONLY"].flatMap(Int.init) {
            let seconds = Stopwatch.best(of: rounds) {
                for token in tokens where (try? verifier.verifyTransaction(token).get()) == nil {
                    fatalError("a benchmark JWS failed to verify")
                }
            }
            Report.line(String(format: "verify only: %.1f µs per JWS", seconds / Double(count) * 1e6))
            return
        }

        var singleCPU = Double.infinity
        let single = Stopwatch.best(of: 3) {
            let before = CPUTime.ownSeconds
            for token in tokens where (try? verifier.verifyTransaction(token).get()) == nil {
                fatalError("a benchmark JWS failed to verify")
            }
            singleCPU = min(singleCPU, CPUTime.ownSeconds - before)
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var parallelCPU = Double.infinity
        let parallel = Stopwatch.best(of: 3) {
            let before = CPUTime.ownSeconds
            defer { parallelCPU = min(parallelCPU, CPUTime.ownSeconds - before) }
            DispatchQueue.concurrentPerform(iterations: cores) { worker in
                for index in stride(from: worker, to: tokens.count, by: cores) {
                    _ = verifier.verifyTransaction(tokens[index])
                }
            }
        }
        let singleRate = Double(count) / single
        let parallelRate = Double(count) / parallel
        let raw = try ES256Baseline.measure()
        let rawRate = raw.rate

        Report.line(String(format: "Tally SignedDataVerifier, 1 thread: %.0f JWS/s", singleRate))
        Report.line(String(format: "Tally SignedDataVerifier, %d threads: %.0f JWS/s", cores, parallelRate))
        let scaling = parallelRate / (Double(cores) * singleRate), efficiency = singleCPU / parallelCPU
        Report.line(String(format: "%d-thread scaling: %.0f%% of %d× the 1-thread rate in wall-clock time (target ≥ 90%%) %@",
                           cores, 100 * scaling, cores,
                           scaling >= 0.9 ? "OK" : efficiency >= 0.9 ? "OK in CPU time (see the next line)" : "MISSED"))
        // Processor time per JWS on N threads vs on one: what sharing costs (locks, cache lines), apart from
        // whether this shared machine gave the run its N cores (the load average says).
        Report.line(String(format: "CPU time per JWS: %.1f µs on 1 thread, %.1f µs on %d threads (%.0f%% efficiency)%@",
                           singleCPU / Double(count) * 1e6, parallelCPU / Double(count) * 1e6, cores,
                           100 * efficiency, BenchTools.loadAverageNote))
        Report.line(raw.description)
        Report.line(String(format: "1 thread vs raw ECDSA in this process: %.0f%% wall-clock", 100 * singleRate / rawRate))
        if let openssl = raw.opensslRate {
            // `openssl speed` divides by its processor (user) time unless given -elapsed: the library's rate per
            // CPU second is the like-for-like peer, the wall-clock one is printed too.
            let cpuRate = Double(count) / singleCPU
            Report.line(String(format: "1 thread vs openssl speed ecdsap256: %.0f%% wall-clock, %.0f%% CPU time "
                               + "(%.0f JWS per CPU second; target ≥ 75%%) %@", 100 * singleRate / openssl,
                               100 * cpuRate / openssl, cpuRate,
                               singleRate / openssl >= 0.75 ? "OK" : cpuRate / openssl >= 0.75 ? "OK in CPU time" : "MISSED"))
        }
        switch AppleLibraryPeer.measure(tokens: tokens, rootDER: authority.rootDER, bundleId: bundleId) {
        case .success(let peer):
            let peerRate = Double(peer.count) / peer.seconds
            Report.line(String(format: "Apple app-store-server-library %@ (Python), 1 thread: %.0f JWS/s",
                               peer.library, peerRate))
            Report.line(String(format: "1 thread vs Apple's library: %.1f× (target ≥ 20×) %@", singleRate / peerRate,
                               singleRate / peerRate >= 20 ? "OK" : "MISSED"))
            Report.line(String(format: "%d cores vs Apple's library (which uses one): %.1f×", cores,
                               parallelRate / peerRate))
        case .failure(let error):
            Report.line("Apple's library not measured: \(error)")
        }
        VerifyLinesBenchmark.run(signer: signer, rootDER: authority.rootDER, bundleId: bundleId, now: now,
                                 opensslRate: raw.opensslRate) {
            let cpuBefore = CPUTime.ownSeconds
            let seconds = Stopwatch.seconds {
                for token in tokens where (try? verifier.verifyTransaction(token).get()) == nil {
                    fatalError("a benchmark JWS failed to verify")
                }
            }
            return VerifyLinesBenchmark.LibraryRate(
                wall: Double(count) / seconds, cpu: Double(count) / (CPUTime.ownSeconds - cpuBefore))
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
