import Foundation
import TallyCore
import TallySQLiteStore
import TallyServer
import TallyStorage

/// `tally-bench server`, part (d): signed coin purchases posted to one customer whose history holds
/// ``renewals`` monthly renewals, beside part (b)'s posts to fresh customers, in the same run. Each post answers
/// with the customer's state: a coin purchase leaves the customer's facts version, so the state the server holds
/// is restated with the new nets and nothing that grows with the renewals is read or computed.
enum SubscriberPostBenchmark {
    static let customer = "bench-subscriber"
    /// Monthly renewals in the subscriber's history (ten years).
    static let renewals = 120

    /// Writes the subscriber's renewals through the store itself, before `tally serve` opens the directory.
    static func prepare(setup: ServerBenchSetup) throws {
        let catalog = try Catalog(storeKitData: Data(contentsOf: setup.folder.appendingPathComponent("Market.storekit")),
                                  fileName: "Market.storekit")
        let configuration = try AppConfiguration(
            jsonData: try Data(contentsOf: setup.folder.appendingPathComponent("tally.json")), fileName: "tally.json")
        let store = try SQLiteCustomerStore(directory: setup.folder.appendingPathComponent("data").path,
                                            credits: CurrencyCredits(catalog: catalog, configuration: configuration),
                                            readers: 1)
        let month: TimeInterval = 30 * 86_400
        let first = setup.now.addingTimeInterval(-Double(renewals - 1) * month)
        let history = (0..<renewals).map { index in
            let start = first.addingTimeInterval(Double(index) * month)
            return StoredTransaction(
                transaction: StoreTransaction(
                    transactionId: "bench-renewal-\(index)", originalTransactionId: "bench-renewal-0",
                    bundleId: ServerBenchSetup.bundleId, productId: "market.pro.monthly",
                    subscriptionGroupIdentifier: "6E1A1000", purchaseDate: start, expiresDate: start + month,
                    type: .autoRenewable, signedDate: start, environment: .sandbox),
                source: .signedTransaction)
        }
        _ = try store.record(history, for: customer, policy: .transfer, at: setup.now)
    }

    /// The subscriber's latest renewal, as ``prepare(setup:)`` stores it.
    private static func latestRenewal(setup: ServerBenchSetup) -> StoreTransaction {
        let month: TimeInterval = 30 * 86_400
        let first = setup.now.addingTimeInterval(-Double(renewals - 1) * month)
        let start = first.addingTimeInterval(Double(renewals - 1) * month)
        return StoreTransaction(
            transactionId: "bench-renewal-\(renewals - 1)", originalTransactionId: "bench-renewal-0",
            bundleId: ServerBenchSetup.bundleId, productId: "market.pro.monthly", subscriptionGroupIdentifier: "6E1A1000",
            purchaseDate: start, expiresDate: start + month, type: .autoRenewable, signedDate: start, environment: .sandbox)
    }

    /// Posts `count` distinct signed coin purchases to the subscriber, then `count` newer copies of its latest
    /// renewal (each signed later than the one before, so each replaces it: the facts change and the state is
    /// computed from the record); prints each rate and the server's CPU per post beside `fresh`, part (b)'s rate.
    static func measure(setup: ServerBenchSetup, server: TallyServeProcess, wrk: Wrk, count: Int,
                        fresh: (rate: Double, cpuPerPost: Double?)) throws {
        var coins: [String] = []
        coins.reserveCapacity(count)
        for index in 0..<count {
            coins.append(try setup.signedTransaction(id: 5_000_000 + index, productId: "market.coins.10", type: .consumable))
        }
        try post(coins, label: "POST …/transactions, customer with \(renewals) renewals", setup: setup, server: server,
                 wrk: wrk, fresh: fresh)
        var copies: [String] = []
        copies.reserveCapacity(count)
        let renewal = latestRenewal(setup: setup)
        for index in 0..<count {
            var copy = renewal
            copy.signedDate = setup.now.addingTimeInterval(Double(index + 1) / 1000)
            copies.append(try setup.signer.signTransaction(copy))
        }
        try post(copies, label: "  the same customer, newer copies of its latest renewal (facts change)", setup: setup,
                 server: server, wrk: wrk, fresh: fresh)
    }

    private static func post(_ signed: [String], label: String, setup: ServerBenchSetup, server: TallyServeProcess,
                             wrk: Wrk, fresh: (rate: Double, cpuPerPost: Double?)) throws {
        var lines: [String] = []
        lines.reserveCapacity(signed.count)
        for jws in signed {
            lines.append("/v1/customers/\(customer)/transactions\t"
                + String(decoding: try ServerBenchSetup.postBody(jws), as: UTF8.self))
        }
        let files = try PostScript.write(lines: lines, folder: setup.folder)
        let cpuBefore = ProcessCPU.seconds(of: server.process.processIdentifier)
        let posted = try wrk.run(
            "http://127.0.0.1:\(server.port)/",
            headers: ["Authorization: \(setup.authorization)", "Content-Type: application/json"],
            script: files.script, scriptArguments: [files.requests.path, String(wrk.threads)])
        let cpuAfter = ProcessCPU.seconds(of: server.process.processIdentifier)
        var line = String(format: "%@: %.0f posts/s, p50 %.2f ms, p99 %.2f ms (%.2f× the fresh customers' rate)",
                          label, posted.requestsPerSecond, posted.p50 * 1e3, posted.p99 * 1e3,
                          posted.requestsPerSecond / fresh.rate)
        if let cpuBefore, let cpuAfter, posted.requests > 0 {
            line += String(format: "; CPU per post %.3f ms", (cpuAfter - cpuBefore) * 1e3 / Double(posted.requests))
            if let freshCPU = fresh.cpuPerPost { line += String(format: " (fresh %.3f ms)", freshCPU) }
        }
        Report.line(line)
        if posted.non2xx > 0 || posted.socketErrors > 0 {
            Report.line("WARNING subscriber posts: \(posted.non2xx) non-2xx answers, \(posted.socketErrors) socket "
                + "errors of \(posted.requests) requests")
        }
    }
}
