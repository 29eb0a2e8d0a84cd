import Foundation
import TallyCore

/// `tally-bench server`, part (e): App Store Server Notifications V2 ingested per second under concurrent
/// delivery — each verified (outer and nested JWS), deduplicated, applied (a REFUND of a coin purchase posted
/// in part (b): its copy revoked, the coins clawed back) and committed before its 200 — beside SQLite's
/// single-commit rate in the same run (target ≥ 2×), with the server's CPU per notification.
enum NotificationBenchmark {
    static func measure(setup: ServerBenchSetup, server: TallyServeProcess, wrk: Wrk, posted count: Int,
                        es256: ES256Baseline) throws -> Double?
    {
        var lines: [String] = []
        lines.reserveCapacity(count)
        let refundDate = setup.now.addingTimeInterval(1)
        let signing = try Stopwatch.seconds {
            for index in 0..<count {
                // The server's shape of the transaction posted in part (b): Apple's notifications carry every
                // field but the two on-device ones.
                var refunded = DeviceTransaction.consumable(
                    id: String(2_000_000_500_000_000 + 1_000 + index), bundleId: ServerBenchSetup.bundleId,
                    productId: "market.coins.10", now: setup.now, device: false)
                refunded.signedDate = refundDate
                refunded.revocationDate = refundDate
                refunded.revocationReason = .other
                let notification = ServerNotification(
                    notificationType: .refund, notificationUUID: UUID().uuidString.lowercased(), version: "2.0",
                    signedDate: refundDate,
                    data: NotificationData(bundleId: ServerBenchSetup.bundleId, bundleVersion: "1.0", environment: .sandbox,
                                           signedTransactionInfo: try setup.signer.signTransaction(refunded)))
                let body = try JSONSerialization.data(withJSONObject: ["signedPayload": try setup.signer.sign(notification)])
                lines.append("/v1/notifications/apple\t" + String(decoding: body, as: UTF8.self))
            }
        }
        Report.line(String(format: "signed %d REFUND notifications in %.1f s", count, signing))
        let files = try PostScript.write(lines: lines, folder: setup.folder)
        let sqliteSeconds = min(2, Double(wrk.seconds))
        let before = try SQLiteCommitRate.measure(folder: setup.folder, name: "notify-before", seconds: sqliteSeconds)
        let perf = PerfRecord(pid: server.process.processIdentifier, name: "notifications")
        let cpuBefore = ProcessCPU.seconds(of: server.process.processIdentifier)
        let ioBefore = ProcessIO.now(of: server.process.processIdentifier)
        let result = try wrk.run("http://127.0.0.1:\(server.port)/", headers: ["Content-Type: application/json"],
                                 script: files.script, scriptArguments: [files.requests.path, String(wrk.threads)])
        let cpuAfter = ProcessCPU.seconds(of: server.process.processIdentifier)
        perf.stop()
        let ioAfter = ProcessIO.now(of: server.process.processIdentifier)
        let after = try SQLiteCommitRate.measure(folder: setup.folder, name: "notify-after", seconds: sqliteSeconds)
        let sqlite = (before + after) / 2
        Report.line(String(format: "POST /v1/notifications/apple (verify + dedupe + apply + durable commit): %.0f/s, "
                           + "p50 %.2f ms, p99 %.2f ms", result.requestsPerSecond, result.p50 * 1e3, result.p99 * 1e3))
        let ratio = result.requestsPerSecond / sqlite
        Report.line(String(format: "notifications vs SQLite commits (%.0f/s): %.0f%% (target ≥ 200%%) %@", sqlite,
                           100 * ratio, ratio >= 2 ? "OK" : "MISSED"))
        var perNotification: Double?
        if let cpuBefore, let cpuAfter, result.requests > 0 {
            let cost = (cpuAfter - cpuBefore) * 1e3 / Double(result.requests)
            perNotification = cost
            let ratio = cost / (2 * es256.cpuSecondsPerVerify * 1e3)
            Report.line(String(format: "tally serve CPU per notification: %.3f ms = %.2f× its two ES256 verifications "
                               + "(%.3f ms; target ≤ 2×) %@", cost, ratio, 2 * es256.cpuSecondsPerVerify * 1e3,
                               ratio <= 2 ? "OK" : "MISSED"))
        }
        if let io = ProcessIO.perRequest(from: ioBefore, to: ioAfter, requests: result.requests, noun: "notification") {
            Report.line("tally serve I/O: " + io)
        }
        if result.requests > count {
            Report.line("note: \(result.requests) requests for \(count) notifications: the repeats are duplicates "
                + "(answered 200, nothing applied)")
        }
        if result.non2xx > 0 || result.socketErrors > 0 {
            Report.line("WARNING notifications: \(result.non2xx) non-2xx, \(result.socketErrors) socket errors of \(result.requests)")
        }
        return perNotification
    }
}
