import Foundation


/// Sums of spend amounts per currency. Spends of one currency usually repeat the same amount, so a run of
/// equal amounts is counted and multiplied once, instead of one `Decimal` addition per spend.
struct SpendSums {
    private var sums: [String: Decimal] = [:]
    private var runCurrency: String?
    private var runAmount = Decimal(0)
    private var runLength = 0

    /// Adds `amount` to `currency`'s sum.
    mutating func add(_ amount: Decimal, to currency: String) {
        if runLength > 0, runCurrency == currency, runAmount == amount {
            runLength += 1
            return
        }
        flush()
        runCurrency = currency
        runAmount = amount
        runLength = 1
    }

    private mutating func flush() {
        guard let runCurrency, runLength > 0 else { return }
        sums[runCurrency, default: 0] += runLength == 1 ? runAmount : runAmount * Decimal(runLength)
        runLength = 0
    }

    /// The sum per currency.
    mutating func totals() -> [String: Decimal] {
        flush()
        return sums
    }
}
