import Foundation
import TallyCore
import TallySandbox

/// `tally-bench core`: the ownership rules over 100,000 transactions, and sandbox purchases per second.
enum CoreBenchmark {
    static func run() {
        Report.header("core")
        let fixture = BenchFixture()
        let history = fixture.history(transactions: 100_000)
        var state = CustomerState(date: fixture.start)
        let seconds = Stopwatch.best(of: 5) {
            state = CustomerState(catalog: fixture.catalog, configuration: fixture.configuration,
                                  history: history, at: fixture.end)
        }
        Report.underLimit("CustomerState from \(history.transactions.count) transactions",
                          value: seconds * 1000, unit: "ms", limit: 20)
        Report.line("(coins balance \(state.balance("coins")), \(state.subscriptions.count) groups, "
            + "\(state.entitlements.count) entitlements)")

        let purchases = 100_000
        var sandbox = Sandbox(catalog: fixture.catalog, configuration: fixture.configuration, start: fixture.start)
        let ids = fixture.catalog.products.filter { $0.kind == .consumable }.map(\.id)
        let purchaseSeconds = Stopwatch.seconds {
            for index in 0..<purchases {
                _ = sandbox.purchase(ids[index % ids.count], account: "account-\(index % 1000)")
            }
        }
        Report.overTarget("sandbox purchases in memory", rate: Double(purchases) / purchaseSeconds,
                          unit: "purchases/s", target: 50_000)
    }

    /// `tally-bench rules`: only the ownership rules, 20 times, for a profiler (`perf record`, callgrind).
    static func profileRules() {
        let fixture = BenchFixture()
        let history = fixture.history(transactions: 100_000)
        var seconds: [Double] = []
        var ledgerSeconds: [Double] = []
        for _ in 0..<20 {
            var state = CustomerState(date: fixture.start)
            seconds.append(Stopwatch.seconds {
                state = CustomerState(catalog: fixture.catalog, configuration: fixture.configuration,
                                      history: history, at: fixture.end)
            })
            ledgerSeconds.append(Stopwatch.seconds { _ = state.ledger.count })
        }
        Report.line(String(format: "rules: best %.2f ms, median %.2f ms; then the first read of its ledger: "
            + "best %.2f ms, median %.2f ms", seconds.min()! * 1000, seconds.sorted()[seconds.count / 2] * 1000,
            ledgerSeconds.min()! * 1000, ledgerSeconds.sorted()[ledgerSeconds.count / 2] * 1000))
    }
}
