import Foundation
import TallyCore
import TallySQLiteStore
import TallyServer
import TallyStorage

/// `tally-bench server`, part (c): spends per second for a customer with a long history beside a fresh
/// customer's, through the real `tally serve`, in the same run. A spend is judged on the balance the store keeps
/// materialised, so its cost must not grow with the ledger (target: the long history at ≥ 0.9× the fresh rate).
enum SpendBenchmark {
    static let longHistoryCustomer = "bench-spend-history"
    static let freshCustomer = "bench-spend-fresh"
    /// Coin purchases in the long history: each is a ledger entry.
    static var historyEntries: Int {
        max(1_000, ProcessInfo.processInfo.environment["TALLY_BENCH_SPEND_HISTORY"].flatMap { Int($0) } ?? 100_000)
    }

    /// Writes both customers into the data directory through the store itself, before `tally serve` opens it:
    /// the long history gets ``historyEntries`` purchases of 10 coins (in batches of 2,000 per write), the fresh
    /// customer one purchase of the same number of coins. Returns the seconds it took.
    static func prepare(setup: ServerBenchSetup) throws -> Double {
        let catalogData = try Data(contentsOf: setup.folder.appendingPathComponent("Market.storekit"))
        let catalog = try Catalog(storeKitData: catalogData, fileName: "Market.storekit")
        let configuration = try AppConfiguration(
            jsonData: try Data(contentsOf: setup.folder.appendingPathComponent("tally.json")), fileName: "tally.json")
        let store = try SQLiteCustomerStore(directory: setup.folder.appendingPathComponent("data").path,
                                            credits: CurrencyCredits(catalog: catalog, configuration: configuration),
                                            readers: 1)
        return try Stopwatch.seconds {
            var next = 0
            while next < historyEntries {
                let batch = (next..<min(historyEntries, next + 2_000)).map { index in
                    coins(id: "bench-history-\(index)", quantity: 1, at: setup.now)
                }
                _ = try store.record(batch, for: longHistoryCustomer, policy: .transfer, at: setup.now)
                next += batch.count
            }
            _ = try store.record([coins(id: "bench-fresh-0", quantity: historyEntries, at: setup.now)],
                                 for: freshCustomer, policy: .transfer, at: setup.now)
        }
    }

    /// Spends of 1 coin with distinct ids, on each customer in turn, in alternating rounds (fresh, long, long,
    /// fresh, then again), so a change in the machine's load during the runs falls on both customers alike.
    /// Each side gets four rounds of half `TALLY_BENCH_SECONDS` (at least 1 s); its rate is its requests over its
    /// time, its p50 the median round's and its p99 the worst round's.
    static func measure(setup: ServerBenchSetup, server: TallyServeProcess, wrk: Wrk) throws {
        var round = wrk
        round.seconds = max(1, wrk.seconds / 2)
        let count = max(1_000, ProcessInfo.processInfo.environment["TALLY_BENCH_SPENDS"].flatMap { Int($0) }
            ?? 25_000 * round.seconds)
        let order = [freshCustomer, longHistoryCustomer, longHistoryCustomer, freshCustomer]
        var rounds: [String: [WrkResult]] = [:]
        for (index, customer) in (order + order).enumerated() {
            let first = index * count  // every round spends ids of its own
            let lines = (first..<first + count).map { spend in
                "/v1/customers/\(customer)/currencies/coins/spend\t{\"amount\":1,\"id\":\"\(customer)-\(spend)\"}"
            }
            let files = try PostScript.write(lines: lines, folder: setup.folder)
            rounds[customer, default: []].append(try round.run(
                "http://127.0.0.1:\(server.port)/",
                headers: ["Authorization: \(setup.authorization)", "Content-Type: application/json"],
                script: files.script, scriptArguments: [files.requests.path, String(round.threads)]))
        }
        guard let fresh = rounds[freshCustomer].map(WrkRounds.init), let long = rounds[longHistoryCustomer].map(WrkRounds.init)
        else { return }
        Report.line(String(format: "POST …/spend, fresh customer: %.0f spends/s, p50 %.2f ms, p99 %.2f ms",
                           fresh.rate, fresh.p50 * 1e3, fresh.p99 * 1e3))
        Report.line(String(format: "POST …/spend, customer with %d ledger entries: %.0f spends/s, p50 %.2f ms, "
                           + "p99 %.2f ms", historyEntries, long.rate, long.p50 * 1e3, long.p99 * 1e3))
        let ratio = long.rate / fresh.rate
        let pairs = zip(rounds[longHistoryCustomer] ?? [], rounds[freshCustomer] ?? [])
            .map { $0.requestsPerSecond / $1.requestsPerSecond }
        Report.line(String(format: "long history vs fresh: %.2f× over %d alternating %d s rounds each (round pairs "
                           + "%.2f–%.2f×; target ≥ 0.9×) %@", ratio, rounds[freshCustomer]?.count ?? 0, round.seconds,
                           pairs.min() ?? 0, pairs.max() ?? 0, ratio >= 0.9 ? "OK" : "MISSED"))
        for (name, result) in [("fresh", fresh), ("long history", long)]
        where result.non2xx > 0 || result.socketErrors > 0 {
            Report.line("WARNING spends (\(name)): \(result.non2xx) non-2xx answers, \(result.socketErrors) socket "
                + "errors of \(result.requests) requests (raise TALLY_BENCH_SPENDS if the ids ran out)")
        }
        if let most = rounds.values.joined().map(\.requests).max(), most > count {
            Report.line("note: a round sent \(most) spends for \(count) ids: repeats (answered `duplicate`) are "
                + "included; raise TALLY_BENCH_SPENDS")
        }
    }

    private static func coins(id: String, quantity: Int, at date: Date) -> StoredTransaction {
        StoredTransaction(
            transaction: StoreTransaction(transactionId: id, bundleId: ServerBenchSetup.bundleId, productId: "market.coins.10",
                                     purchaseDate: date, quantity: quantity, type: .consumable, signedDate: date,
                                     environment: .sandbox),
            source: .signedTransaction)
    }
}
