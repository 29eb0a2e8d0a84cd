import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension ServerProcessTests {
    /// A body of many tiny JSON values is refused by a byte scan before any parsing.
    @Suite struct JSONElementLimit {
        /// `[0,0,…]`: 500,000 elements in 1,000,001 bytes, under the 1 MiB body limit of the receipts route.
        static let attackBody = Data(("[" + Array(repeating: "0", count: 500_000).joined(separator: ",") + "]").utf8)

        @Test func aBodyOverTheElementLimitIs400JSONTooManyElements() async throws {
            var options = ServerOptions()
            options.maxBodyBytes = 1_048_576
            let fixture = try ServerFixture(options)
            let client = fixture.client
            let path = APIClient.customerPath("ann") + "/transactions"
            // The receipts route takes the largest bodies (1 MiB); the transactions route refuses this one by size.
            let receipts = APIClient.customerPath("ann") + "/receipts"
            let reply = try await client.send("POST", receipts, key: fixture.keys.publicKey, body: Self.attackBody)
            #expect(reply.status == 400 && reply.errorCode == "json_too_many_elements", "\(reply.text.prefix(300))")
            // 1,000 values pass the scan (and fail later as what they are), 1,001 do not.
            let atLimit = Data(("[" + Array(repeating: "0", count: 999).joined(separator: ",") + "]").utf8)
            let over = Data(("[" + Array(repeating: "0", count: 1_000).joined(separator: ",") + "]").utf8)
            let first = try await client.send("POST", path, key: fixture.keys.publicKey, body: atLimit)
            #expect(first.status == 400 && first.errorCode == "invalid_request", "\(first)")
            let second = try await client.send("POST", path, key: fixture.keys.publicKey, body: over)
            #expect(second.errorCode == "json_too_many_elements", "\(second)")
            // Configurable: a limit of 2 refuses a spend body of three values.
            try fixture.reconfigure { $0["limits"] = ["maxJSONElements": 2] }
            let spend = try await fixture.client.spend(1, id: "s-1", for: "ann")
            #expect(spend.status == 400 && spend.errorCode == "json_too_many_elements", "\(spend)")
        }

        /// Six attack bodies in flight at all times (six senders, each sending its next as soon as the last
        /// is answered) while 200 `/healthz` probes are timed, each on a new connection as a load balancer's
        /// would be; the server's CPU time per attack body is measured too (it was 2 s).
        @Test func sixAttackBodiesAtOnceLeaveHealthzUnder50MillisecondsP99() async throws {
            let fixture = try ServerFixture()
            let port = fixture.server.port
            let key = fixture.keys.publicKey
            let running = Locked(true)
            let answers = Locked([String: Int]())
            let senders = (0..<6).map { index in
                Thread {
                    guard let connection = try? RawConnection(port: port) else { return }
                    while running.current {
                        let reply = try? connection.request("POST", APIClient.customerPath("attacker-\(index)")
                                                            + "/receipts", key: key, body: Self.attackBody)
                        let label = reply.map { "\($0.status) \($0.errorCode ?? "-")" } ?? "no answer"
                        answers.withLock { $0[label, default: 0] += 1 }
                        if reply == nil { return }
                    }
                }
            }
            senders.forEach { $0.start() }
            defer { running.withLock { $0 = false } }
            // Let the attack start before measuring.
            while answers.current.values.reduce(0, +) < 6 { try await Task.sleep(for: .milliseconds(5)) }
            let cpuBefore = try Self.cpuSeconds(of: fixture.server.pid)
            let answeredBefore = answers.current.values.reduce(0, +)
            var latencies: [Duration] = []
            for _ in 0..<200 {
                let start = ContinuousClock.now
                let probe = try RawConnection(port: port)
                let reply = try probe.request("GET", "/healthz")
                latencies.append(ContinuousClock.now - start)
                #expect(reply.status == 200)
                try await Task.sleep(for: .milliseconds(5))
            }
            let cpu = try Self.cpuSeconds(of: fixture.server.pid) - cpuBefore
            let answered = answers.current.values.reduce(0, +) - answeredBefore
            running.withLock { $0 = false }
            latencies.sort()
            let p99 = latencies[197], median = latencies[100]
            let seen = answers.current
            let perBody = cpu / Double(max(answered, 1))
            print("healthz under attack: median \(median), p99 \(p99), max \(latencies[199]); attack answers \(seen); "
                  + "server CPU \(cpu) s for \(answered) bodies (\(perBody) s each)")
            #expect(perBody < 0.2, "server CPU per attack body: \(perBody) s")
            #expect(p99 < .milliseconds(50), "p99 \(p99) (median \(median)); attack answers \(seen)")
            #expect(seen.keys.allSatisfy { $0 == "400 json_too_many_elements" }, "\(seen)")
            #expect(seen.values.reduce(0, +) >= 12, "the attack kept going during the probes: \(seen)")
        }
    
        /// User plus system CPU time of process `pid` so far, in seconds (from /proc/PID/stat).
        static func cpuSeconds(of pid: Int32) throws -> Double {
            let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            // Fields after the command name (which ends with the last ')'): state is field 3, utime 14, stime 15.
            guard let close = stat.lastIndex(of: ")") else { throw HarnessError("unreadable /proc/\(pid)/stat") }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
                throw HarnessError("unreadable /proc/\(pid)/stat: \(stat.prefix(200))")
            }
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }
    }
}
